package profile

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tick-kernel/tick/internal/units"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// MaxTableRows is how many kernels Text lists; the rest are summed on one
// line.
const MaxTableRows = 15

func dur(d time.Duration) string { return timing.FormatDuration(float64(d), 3) }

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// Text renders the profile for a person: what ran, the overlap numbers,
// the JIT calls, the host phases and the per-kernel table, with what each
// number is.
func (p *Profile) Text() string {
	var b strings.Builder
	o := p.Overlap()
	var devs []string
	for _, l := range p.Lanes()[1:] {
		if !strings.HasSuffix(l, TransfersSuffix) {
			devs = append(devs, l)
		}
	}
	label := p.Label
	if label == "" {
		label = "profile"
	}
	timing.WriteWrapped(&b, "", fmt.Sprintf("%s — %d kernels on %s in %s wall", label, p.Kernels(), orNone(devs), dur(o.Wall)))
	row(&b, "overlap", pct(o.HostHidden())+" of host work ran while a device was busy",
		fmt.Sprintf("device busy %s (%s of wall)", dur(o.DeviceBusy), pct(o.DeviceUtilization())),
		fmt.Sprintf("host waiting %s (%s)", dur(o.HostWaiting), pct(o.HostWaitShare())))
	if rs := p.OverlapRuns; len(rs) > 1 {
		lo, med, hi := spread(rs)
		timing.WriteWrapped(&b, strings.Repeat(" ", 11), fmt.Sprintf("over %d runs of the same calls: host work hidden %s median, %s to %s (it moves with the load: quote the median and its range)",
			len(rs), pct(med), pct(lo), pct(hi)))
	}
	if r, ok := p.Descheduled(); ok && float64(r.Descheduled) > timing.DescheduledShare*float64(r.Wall) {
		timing.WriteWrapped(&b, strings.Repeat(" ", 11), fmt.Sprintf("the machine was busy: the thread making the calls waited %s for a CPU in %s of recorded runs (%s); "+
			"while it waited, any kernel it had launched ran on, and counts as host work hidden behind the device",
			dur(r.Descheduled), dur(r.Wall), pct(float64(r.Descheduled)/float64(r.Wall))))
	}
	if jit := p.JITCalls(); len(jit) > 0 {
		row(&b, "JIT", fmt.Sprintf("%d cold", jit["cold"]), fmt.Sprintf("%d capture", jit["capture"]), fmt.Sprintf("%d replay calls", jit["replay"]))
	}
	regions := p.Regions()
	if len(regions) > 0 {
		var parts []string
		for _, r := range regions { // device time by tensor.Region
			parts = append(parts, fmt.Sprintf("%s %s (%s of device time, %d launches)", r.Name, dur(r.Total), pct(r.Share), r.Launches))
		}
		row(&b, "regions", parts...)
	}
	ph := p.Phases()
	var parts []string
	for k := tensor.EventGraph; k <= tensor.EventSync; k++ {
		if t, ok := ph[k]; ok {
			parts = append(parts, k.String()+" "+dur(t))
		}
	}
	if len(parts) > 0 {
		row(&b, "host", parts...)
	}
	for _, c := range p.Clocks {
		row(&b, "clock", fmt.Sprintf("the lanes of %s are its own clock's: each kernel and copy from its started to its ended stamp "+
			"(OpenCL profiling events)", c.Device),
			fmt.Sprintf("put on the host's timeline by an offset measured within ±%s", dur(c.Bound)),
			"a gap between a launch on the host's lane and its kernel is the command queueing on the device")
	}
	if n, bytes, t := p.Transfers(); n > 0 {
		row(&b, "copies", fmt.Sprintf("%d on the devices' queues", n),
			fmt.Sprintf("%s in %s by the device clock (%s/s)", units.Quantity(float64(bytes), "B"), dur(t),
				units.Quantity(float64(bytes)/max(t.Seconds(), 1e-9), "B")))
	}
	rows := p.KernelTable()
	if len(rows) > 0 {
		timing.WriteWrapped(&b, "  kernels  ", "device time per kernel, most first; GFLOP/s and GB/s are estimates (IR counts over measured time)")
		w := len("kernel")
		for i, r := range rows {
			if i < MaxTableRows {
				w = max(w, len(r.Name))
			}
		}
		w = min(w, maxNameWidth) // longer names are cut, so the table fits timing.TextWidth
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  %-*s\tdevice\tcount\ttotal\tmean\tshare\tGFLOP/s\tGB/s\tcompile\tcache\t\n", w, "kernel")
		var rest KernelRow
		for i, r := range rows {
			if i >= MaxTableRows {
				rest.Count += r.Count
				rest.Total += r.Total
				rest.Share += r.Share
				continue
			}
			fmt.Fprintf(tw, "  %-*s\t%s\t%d\t%s\t%s\t%s\t%.3g\t%.3g\t%s\t%s\t\n", w, cut(r.Name, w), r.Device, r.Count, dur(r.Total), dur(r.Mean),
				pct(r.Share), r.GFLOPs, r.GBs, compileText(r), strings.TrimSuffix(r.Cache, " cache"))
		}
		if n := len(rows) - MaxTableRows; n > 0 {
			fmt.Fprintf(tw, "  %-*s\t\t%d\t%s\t\t%s\t\t\t\t\t\n", w, fmt.Sprintf("… %d more kernels", n), rest.Count, dur(rest.Total), pct(rest.Share))
		}
		tw.Flush()
	}
	for _, w := range p.Warnings() {
		timing.WriteWrapped(&b, "  warning: ", w)
	}
	return strings.TrimRight(b.String(), "\n")
}

// row writes a labelled row of items ("  overlap  a · b · c"), wrapped
// at timing.TextWidth under its first item.
func row(b *strings.Builder, label string, items ...string) {
	head := fmt.Sprintf("  %-7s  ", label)
	indent := strings.Repeat(" ", len(head))
	for i, l := range timing.JoinWrapped(items, timing.TextWidth-len(head)) {
		if i > 0 {
			head = indent
		}
		b.WriteString(head + l + "\n")
	}
}

// maxNameWidth is the widest kernel name the table shows whole: with the
// other columns at their widest (a 6-character device, rates of 8) a row is
// then at most timing.TextWidth characters.
const maxNameWidth = 20

// cut shortens s to n characters, ending it with "…" when cut.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func compileText(r KernelRow) string {
	if r.Compile <= 0 {
		return "-"
	}
	return dur(r.Compile)
}

func orNone(devs []string) string {
	if len(devs) == 0 {
		return "no device"
	}
	return strings.Join(devs, ", ")
}

// Warnings say what makes the profile's numbers less than they seem.
func (p *Profile) Warnings() []string {
	var w []string
	if p.Dropped > 0 {
		w = append(w, fmt.Sprintf("%d events did not fit the buffer of %d and are missing from the timeline and table; profile fewer calls, or raise the capacity", p.Dropped, p.Capacity))
	}
	if p.Clamped > 0 {
		w = append(w, fmt.Sprintf("%d events' stamps were moved forward (by at most the clocks' 4.5 µs error bound) so that none starts before the profile, before its enqueue or ends before it starts: host spans read the monotonic clock, device lanes the runtime's phase clock", p.Clamped))
	}
	if c, n := p.Compiling(); p.Overlap().Wall > 0 && float64(c) > CompileDominates*float64(p.Overlap().Wall) {
		o := p.Overlap()
		w = append(w, fmt.Sprintf("compiling %d kernels took %s of the %s wall (%s): this profile is mostly the first call's compile, "+
			"not the statement's work; the zoomed panel shows the calls after it; profile again (the kernels now come from the "+
			"cache), or run `tick warm` once to compile the tutorial notebooks' kernels ahead", n, dur(c), dur(o.Wall), pct(float64(c)/float64(o.Wall))))
	}
	if p.Debug >= 2 {
		w = append(w, fmt.Sprintf("DEBUG=%d waits for every kernel to time it: the overlap above is what the forced waits leave, not how the program normally runs", p.Debug))
	}
	if p.Kernels() == 0 {
		w = append(w, "no kernel ran: the statement did not Realize any tensor (tensor ops are lazy; call Realize, or read a value)")
	}
	return w
}

// spread is the smallest, median and largest of xs.
func spread(xs []float64) (lo, med, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return s[0], med, s[n-1]
}
