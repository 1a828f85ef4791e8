// Package profile turns the tensor runtime's recorded events (a
// tensor.Recording) into what a person reads: lanes (the host, one per
// device worker), the host/device overlap as numbers, a per-kernel table,
// and Chrome trace-event JSON (opens in Perfetto and chrome://tracing),
// which it also reads back. It knows nothing of Jupyter or of the magic
// that takes the profile.
package profile

import (
	"sort"
	"time"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Profile is one recording with what the profiler knew about it.
type Profile struct {
	Label    string        // what was profiled (the statement)
	Start    time.Time     // wall-clock start
	Duration time.Duration // wall time from start to stop (the profile's extent)
	Events   []tensor.Event
	Dropped  int64 // events that did not fit the buffer
	Capacity int   // the buffer's size in events
	Debug    int   // the DEBUG level the statement ran at
	Clamped  int   // events whose stamps were moved so none runs backwards (tensor.Recording)
	// OverlapRuns are HostHidden of this recording and of further ones of
	// the same calls (the overlap moves with the machine's load from run
	// to run: one figure alone can read 0% or 98%); empty when only one
	// run was recorded.
	OverlapRuns []float64
	// Runs are the overlap's parts per recorded run, in the order of
	// OverlapRuns, with how long the thread that made the calls waited for
	// a CPU meanwhile; empty for a profile read from a trace.
	Runs []Run
	// Clocks are the devices whose lanes show their own clock's stamps
	// (kernels and copies from started to ended), with the bound on
	// putting them on the host's timeline (tensor.Recording.Clocks).
	Clocks []tensor.DeviceClock
}

// Run is one recording's overlap and how busy the machine was for the
// host's thread meanwhile.
type Run struct {
	Wall, HostWork, Hidden time.Duration // its Overlap's
	// Descheduled is how long the thread that made the calls waited on a
	// run queue — ready to run while other threads or programs had the
	// CPUs (timing.ThreadRunDelay) — during the run; -1 where not known.
	// Host work is the time outside waits, so a descheduled host thread
	// counts as working, and as hidden if a device ran meanwhile: under
	// DEBUG=2 that is how host work can look hidden behind kernels it has
	// just launched.
	Descheduled time.Duration
	// CPU is that thread's CPU time during the run (timing.ThreadCPU);
	// -1 where not known.
	CPU time.Duration
}

// IdleWork is the least time of r's host work the host's thread cannot
// have been running: host work minus all its CPU time (waits included),
// at most the time it waited for a CPU; -1 where either is not known.
// It is what a descheduled host thread can have added to the host work,
// counting no run-queue wait that fell inside a wait (such as the wake-up
// after Synchronize).
func (r Run) IdleWork() time.Duration {
	if r.Descheduled < 0 || r.CPU < 0 {
		return -1
	}
	return max(min(r.HostWork-r.CPU, r.Descheduled), 0)
}

// RunningHidden is the share of host work hidden behind a device with the
// run's IdleWork taken out of both: of the host work the thread can have
// been running, the share that overlapped a device, counting all its idle
// time as hidden (the most it can have added). Without an IdleWork it is
// the overlap's HostHidden.
func (r Run) RunningHidden() float64 {
	idle := max(r.IdleWork(), 0)
	return ratio(max(r.Hidden-idle, 0), r.HostWork-idle)
}

// NewRun is p's Run, the host's thread having waited descheduled for a
// CPU and run cpu meanwhile.
func NewRun(p *Profile, descheduled, cpu time.Duration) Run {
	o := p.Overlap()
	return Run{Wall: o.Wall, HostWork: o.HostWork, Hidden: o.Hidden, Descheduled: descheduled, CPU: cpu}
}

// Descheduled sums p.Runs: their wall time, host work, hidden host work,
// the host thread's wait for a CPU and its CPU time; ok false when there
// are no runs or a run's wait or CPU time is not known. (IdleWork of the
// sum bounds the runs' together.)
func (p *Profile) Descheduled() (sum Run, ok bool) {
	for _, r := range p.Runs {
		if r.Descheduled < 0 || r.CPU < 0 {
			return Run{}, false
		}
		sum.Wall += r.Wall
		sum.HostWork += r.HostWork
		sum.Hidden += r.Hidden
		sum.Descheduled += r.Descheduled
		sum.CPU += r.CPU
	}
	return sum, len(p.Runs) > 0
}

// Clocked reports whether the device's lane is drawn by its own clock.
func (p *Profile) Clocked(device string) bool {
	for _, c := range p.Clocks {
		if c.Device == device {
			return true
		}
	}
	return false
}

// FromRecording wraps a runtime recording.
func FromRecording(label string, rec *tensor.Recording, debug int) *Profile {
	return &Profile{Label: label, Start: rec.Start, Duration: rec.Duration, Events: rec.Events,
		Dropped: rec.Dropped, Capacity: rec.Capacity, Debug: debug, Clamped: rec.Clamped, Clocks: rec.Clocks}
}

// HostLane is the name of the host's lane; device lanes are named by their
// device ("CPU", "GO"), and a device's copies (transfers timed by its
// clock) are on a lane of their own, "CL transfers".
const HostLane = "host"

// TransfersSuffix ends the name of a device's transfers lane.
const TransfersSuffix = " transfers"

// Lane is the lane an event is drawn on: the device for kernels, its
// transfers lane for copies, else the host.
func Lane(e tensor.Event) string {
	switch e.Kind {
	case tensor.EventKernel:
		return e.Device
	case tensor.EventCopy:
		return e.Device + TransfersSuffix
	}
	return HostLane
}

// Lanes lists the lanes of p: the host first, then each device that ran
// kernels or copies, sorted, its transfers lane after it.
func (p *Profile) Lanes() []string {
	kern, copies := map[string]bool{}, map[string]bool{}
	var devs []string
	for _, e := range p.Events {
		if e.Kind != tensor.EventKernel && e.Kind != tensor.EventCopy {
			continue
		}
		if !kern[e.Device] && !copies[e.Device] {
			devs = append(devs, e.Device)
		}
		if e.Kind == tensor.EventKernel {
			kern[e.Device] = true
		} else {
			copies[e.Device] = true
		}
	}
	sort.Strings(devs)
	out := []string{HostLane}
	for _, d := range devs {
		if kern[d] {
			out = append(out, d)
		}
		if copies[d] {
			out = append(out, d+TransfersSuffix)
		}
	}
	return out
}

// Transfers sums the copies timed by a device's clock: how many, their
// bytes and device time.
func (p *Profile) Transfers() (n int, bytes int64, t time.Duration) {
	for _, e := range p.Events {
		if e.Kind == tensor.EventCopy {
			n++
			bytes += e.Bytes
			t += e.Duration()
		}
	}
	return n, bytes, t
}

// Kernels is the number of kernel events.
func (p *Profile) Kernels() int {
	n := 0
	for _, e := range p.Events {
		if e.Kind == tensor.EventKernel {
			n++
		}
	}
	return n
}

// interval is a half-open span [a, b) in ns since the profile's start.
type interval struct{ a, b int64 }

// union sorts and merges spans; the result is disjoint and ordered.
func union(iv []interval) []interval {
	sort.Slice(iv, func(i, j int) bool { return iv[i].a < iv[j].a })
	var out []interval
	for _, x := range iv {
		if x.b <= x.a {
			continue
		}
		if n := len(out); n > 0 && x.a <= out[n-1].b {
			out[n-1].b = max(out[n-1].b, x.b)
			continue
		}
		out = append(out, x)
	}
	return out
}

func total(iv []interval) int64 {
	var t int64
	for _, x := range iv {
		t += x.b - x.a
	}
	return t
}

// intersect is the total length of the intersection of two disjoint,
// ordered interval lists.
func intersect(x, y []interval) int64 {
	var t int64
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		a, b := max(x[i].a, y[j].a), min(x[i].b, y[j].b)
		if b > a {
			t += b - a
		}
		if x[i].b < y[j].b {
			i++
		} else {
			j++
		}
	}
	return t
}

// complement is [0, end) minus the disjoint, ordered list iv.
func complement(iv []interval, end int64) []interval {
	var out []interval
	at := int64(0)
	for _, x := range iv {
		if x.a > at {
			out = append(out, interval{at, min(x.a, end)})
		}
		at = max(at, x.b)
	}
	if at < end {
		out = append(out, interval{at, end})
	}
	return out
}

func spans(evs []tensor.Event, keep func(tensor.Event) bool) []interval {
	var iv []interval
	for _, e := range evs {
		if keep(e) {
			iv = append(iv, interval{int64(e.Start), int64(e.End)})
		}
	}
	return union(iv)
}
