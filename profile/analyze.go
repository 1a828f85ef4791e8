package profile

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Overlap is how host and devices shared the profile's wall time. All
// durations are unions of spans (concurrent spans count once).
type Overlap struct {
	Wall        time.Duration            // the profile's extent
	DeviceBusy  time.Duration            // some device ran a kernel
	PerDevice   map[string]time.Duration // each device's busy time
	HostWaiting time.Duration            // the host waited in Synchronize (or a read)
	HostWork    time.Duration            // Wall - HostWaiting: the host did anything else
	Hidden      time.Duration            // host work while a device was busy
}

// DeviceUtilization is DeviceBusy / Wall (0 when there is no wall time).
func (o Overlap) DeviceUtilization() float64 { return ratio(o.DeviceBusy, o.Wall) }

// HostHidden is Hidden / HostWork: the share of the host's work that ran
// while a device was busy, hidden behind device time. DEBUG=2's forced
// waits bring it towards 0.
func (o Overlap) HostHidden() float64 { return ratio(o.Hidden, o.HostWork) }

// HostWaitShare is HostWaiting / Wall.
func (o Overlap) HostWaitShare() float64 { return ratio(o.HostWaiting, o.Wall) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Overlap computes the overlap numbers of p.
func (p *Profile) Overlap() Overlap {
	end := int64(p.Duration)
	for _, e := range p.Events { // a recording read back may lack its extent
		end = max(end, int64(e.End))
	}
	isKernel := func(e tensor.Event) bool { return e.Kind == tensor.EventKernel }
	dev := spans(p.Events, isKernel)
	wait := spans(p.Events, func(e tensor.Event) bool { return e.Kind == tensor.EventSync })
	work := complement(wait, end)
	o := Overlap{Wall: time.Duration(end), DeviceBusy: time.Duration(total(dev)),
		HostWaiting: time.Duration(total(wait)), HostWork: time.Duration(total(work)),
		Hidden: time.Duration(intersect(work, dev)), PerDevice: map[string]time.Duration{}}
	for _, lane := range p.Lanes()[1:] {
		o.PerDevice[lane] = time.Duration(total(spans(p.Events, func(e tensor.Event) bool {
			return (e.Kind == tensor.EventKernel || e.Kind == tensor.EventCopy) && Lane(e) == lane
		})))
	}
	return o
}

// KernelRow is one line of the per-kernel table: every launch of one
// kernel (same Key) on one device.
type KernelRow struct {
	ID     string // KernelID of its events
	Name   string // the kernel's name; "E_256 #2" when two kernels share a name
	Device string
	Key    string
	Shape  []int
	Count  int
	Total  time.Duration // device time, summed over launches
	Mean   time.Duration
	Share  float64 // of all kernels' device time
	FLOPs  int64   // per launch, estimated
	Bytes  int64   // per launch, estimated
	// GFLOPs and GBs are estimated throughputs: the IR's estimates over
	// the measured device time.
	GFLOPs, GBs float64
	Compile     time.Duration // time compiling it during the profile
	Cache       string        // "compiled", "disk cache", "memory cache" or "earlier" (compiled before the profile)
	// Region is the tensor.Region its launches were scheduled in
	// ("forward", "backward", "optimizer"), "+"-joined when they were in
	// several; "" outside any region.
	Region string
}

// KernelTable groups p's kernel events by kernel, the most device time
// first.
func (p *Profile) KernelTable() []KernelRow {
	rows := map[string]*KernelRow{}
	first := map[string]time.Duration{}
	var order []string
	var all time.Duration
	for _, e := range p.Events {
		if e.Kind != tensor.EventKernel {
			continue
		}
		id := KernelID(e)
		r := rows[id]
		if r == nil {
			r = &KernelRow{ID: id, Name: e.Name, Device: e.Device, Key: e.Key, Shape: e.Shape, FLOPs: e.FLOPs, Bytes: e.Bytes}
			rows[id] = r
			first[id] = e.Start
			order = append(order, id)
		}
		r.Count++
		r.Total += e.Duration()
		all += e.Duration()
		if e.Detail != "" && !slices.Contains(strings.Split(r.Region, "+"), e.Detail) {
			if r.Region != "" {
				r.Region += "+"
			}
			r.Region += e.Detail
		}
	}
	states := map[string][]string{}
	for _, e := range p.Events {
		if e.Kind != tensor.EventCompile {
			continue
		}
		id := KernelID(e)
		if r := rows[id]; r != nil {
			r.Compile += e.Duration()
			states[id] = append(states[id], e.Detail)
		}
	}
	out := make([]KernelRow, 0, len(rows))
	names := map[string]int{}
	sort.SliceStable(order, func(i, j int) bool { return first[order[i]] < first[order[j]] })
	for _, id := range order {
		r := rows[id]
		names[r.Name]++
		if n := names[r.Name]; n > 1 {
			r.Name += " #" + strconv.Itoa(n)
		}
		r.Mean = r.Total / time.Duration(r.Count)
		r.Share = ratio(r.Total, all)
		if s := r.Total.Seconds(); s > 0 {
			r.GFLOPs = float64(r.FLOPs) * float64(r.Count) / s / 1e9
			r.GBs = float64(r.Bytes) * float64(r.Count) / s / 1e9
		}
		r.Cache = cacheState(states[id])
		out = append(out, *r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Total > out[j].Total })
	return out
}

// KernelID identifies the kernel of a kernel or compile event: its device
// and Key, or (read back from a trace, which has no keys) its device, name
// and shape.
func KernelID(e tensor.Event) string {
	if e.Key != "" {
		return e.Device + "\x00" + e.Key
	}
	var b strings.Builder
	b.WriteString(e.Device)
	b.WriteByte(0)
	b.WriteString(e.Name)
	for _, n := range e.Shape {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// cacheState summarizes a kernel's compile events: the first compile's
// origin (a later memory hit is expected), or "earlier" when the kernel
// was compiled before the profile began.
func cacheState(s []string) string {
	if len(s) == 0 {
		return "earlier"
	}
	for _, x := range s {
		if x != "memory cache" {
			return x
		}
	}
	return "memory cache"
}

// Phases sums the host spans of p by kind (graph, schedule, ..., sync),
// each a union (nested or concurrent spans count once).
func (p *Profile) Phases() map[tensor.EventKind]time.Duration {
	out := map[tensor.EventKind]time.Duration{}
	for k := tensor.EventGraph; k <= tensor.EventSync; k++ {
		kind := k
		if t := total(spans(p.Events, func(e tensor.Event) bool { return e.Kind == kind })); t > 0 {
			out[kind] = time.Duration(t)
		}
	}
	return out
}

// Compiling is how long kernels were being compiled (or loaded from the
// disk cache) during p, as a union of their compile spans (a schedule's
// kernels compile concurrently), and how many were compiled or loaded:
// memory-cache hits cost nothing and are not counted.
func (p *Profile) Compiling() (time.Duration, int) {
	n := 0
	t := total(spans(p.Events, func(e tensor.Event) bool {
		if e.Kind == tensor.EventCompile && e.Detail != "memory cache" {
			n++
			return true
		}
		return false
	}))
	return time.Duration(t), n
}

// CompileDominates is the share of the wall time above which a profile
// is said to be mostly the C compiler's.
const CompileDominates = 0.5

// JITCalls counts p's JIT calls by phase ("cold", "capture", "replay").
func (p *Profile) JITCalls() map[string]int {
	out := map[string]int{}
	for _, e := range p.Events {
		if e.Kind == tensor.EventJIT {
			out[e.Name]++
		}
	}
	return out
}
