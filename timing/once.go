package timing

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Once is the result of TimeOnce (%time): one synchronized run.
type Once struct {
	Wall time.Duration `json:"wall_ns"`
	// User and Sys are the process's CPU time during the run (all threads).
	User time.Duration `json:"user_ns"`
	Sys  time.Duration `json:"sys_ns"`
	// Phases is the runtime's time per phase during the run, in report
	// order (RuntimePhases first); empty without a probe.
	Phases []PhaseTime `json:"phases,omitempty"`
	// Counters is the probe's difference over the run.
	Counters Probe `json:"counters"`
	// Call is what the timed call did (ordinary, capture or replay; empty
	// without a probe) and JITCall its number in the JIT's life (0 without
	// a JIT or facts).
	Call    CallKind `json:"call,omitempty"`
	JITCall int      `json:"jit_call,omitempty"`
	// Device is the call's work by the clocks of devices that have one
	// (CL); nil when nothing ran on such a device.
	Device *OnceDevice `json:"device,omitempty"`
	// Transfers are the call's copies per direction, with their bytes and
	// times (from the runtime's facts).
	Transfers []Transfer `json:"transfers,omitempty"`
	// Provenance is where and under which conditions the call ran.
	Provenance Provenance `json:"provenance"`
}

// OnceDevice is what the clocks of devices with one measured of a single
// call: its kernels (each from its started to its ended stamp, summed, and
// per kernel) and its copies.
type OnceDevice struct {
	Devices    []string      `json:"devices,omitempty"`
	Kernels    int64         `json:"kernels"`
	KernelTime time.Duration `json:"kernel_ns"`
	Copies     int64         `json:"copies,omitempty"`
	CopyTime   time.Duration `json:"copy_ns,omitempty"`
	PerKernel  []KernelTime  `json:"per_kernel,omitempty"`
}

// PhaseTime is the time spent in one runtime phase.
type PhaseTime struct {
	Name string        `json:"name"`
	Time time.Duration `json:"time_ns"`
}

// TimeOnce runs t once: sync; t0; call; sync; t1. It reports wall time, CPU
// user and system time (getrusage), the probe's phase breakdown, which
// kind of call it timed and the provenance. p is what the caller knows of
// the provenance (may be zero).
func TimeOnce(t Target, c Clock, p Provenance) (*Once, error) {
	if t.Call == nil {
		return nil, ErrNoCall
	}
	if c == nil {
		c = WallClock()
	}
	r := &runner{t: t, c: c}
	if err := r.sync(&t); err != nil {
		return nil, err
	}
	load0 := loadAverage()
	var stop func() Facts
	if t.Record != nil {
		stop = t.Record()
	}
	p0 := r.probe()
	u0, s0 := rusage()
	t0 := c.Now()
	err := t.Call(1)
	if err == nil {
		err = r.sync(&t)
	}
	t1 := c.Now()
	u1, s1 := rusage()
	var f Facts
	if stop != nil {
		f = stop()
	}
	if err != nil {
		return nil, fmt.Errorf("timing: %w", err)
	}
	d := r.probe().sub(p0)
	o := &Once{Wall: t1 - t0, User: u1 - u0, Sys: s1 - s0, Counters: d, JITCall: f.firstJITCall(), Provenance: p}
	if t.Probe != nil {
		o.Call = kindOf(d)
	}
	cold := Cold{Compiles: d.Compiles - d.DiskHits, DiskHits: d.DiskHits, CacheHits: d.CacheHits, Kind: o.Call}
	fillCommon(&o.Provenance, d.Debug, 0, cold, f)
	o.Transfers = f.Transfers
	if d.DeviceKernels > 0 || d.TransfersClocked > 0 {
		o.Device = &OnceDevice{Devices: f.clocks(), Kernels: d.DeviceKernels, KernelTime: d.DeviceTime,
			Copies: d.TransfersClocked, CopyTime: d.TransferDevice, PerKernel: f.DeviceTimes}
	}
	o.Provenance.Load = Load{Start: load0, End: loadAverage()}
	for _, k := range RuntimePhases {
		if v, ok := d.Phases[k]; ok {
			o.Phases = append(o.Phases, PhaseTime{k, v})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(d.Phases)) {
		if !slices.Contains(RuntimePhases, k) {
			o.Phases = append(o.Phases, PhaseTime{k, d.Phases[k]})
		}
	}
	return o, nil
}

// PhaseOverlap says how a runtime phase relates in time to the others, so
// a report can show which times add up to the wall time and which do not.
type PhaseOverlap int

// Phase overlaps.
const (
	// Sequential phases run on the calling goroutine one after another:
	// they are disjoint, and with "other" they add up to the wall time.
	Sequential PhaseOverlap = iota
	// Nested phases are timed inside sequential ones (allocation happens
	// inside scheduling, JIT launches and tensor creation): already
	// counted, never added again.
	Nested
	// Concurrent phases run on other goroutines at the same time as the
	// sequential ones (kernels on device workers overlap launch and
	// waiting): not a share of the wall time.
	Concurrent
)

// Overlap returns how the phase named name relates to the others and, for
// nested and concurrent phases, a note saying what it overlaps. Phases
// other than the runtime's Phase* keys are taken to be sequential.
func Overlap(name string) (PhaseOverlap, string) {
	switch name {
	case PhaseAlloc:
		return Nested, "timed inside scheduling (output buffers), launch (JIT replays) and tensor creation; already counted there"
	case PhaseDevice:
		return Concurrent, "runs on the devices (a host device's workers, or a device's own queue, timed by its clock) " +
			"at the same time as launch and waiting; not part of the sum"
	}
	return Sequential, ""
}

// Headline is the line of Text a reader looks for first: the wall time.
func (o *Once) Headline(digits int) string {
	return "Wall time: " + FormatDuration(float64(o.Wall), digits)
}

// Text renders the run like IPython's %time, followed by the phase table:
// sequential phases with "other" (what no phase accounts for) add up to
// the wall time; nested and concurrent phases follow, indented, each with
// a footnote saying what it overlaps.
//
//	CPU times: user 1.20 ms, sys 0 ns, total 1.20 ms
//	Wall time: 1.31 ms
//	phase                       time    wall
//	compilation               500 µs   38.2%
//	other                     810 µs   61.8%
//	  device execution ¹     1.00 ms   76.3%
//	¹ device execution runs on the devices ...
func (o *Once) Text(digits int) string {
	f := func(d time.Duration) string { return FormatDuration(float64(d), digits) }
	var b strings.Builder
	if haveRusage {
		fmt.Fprintf(&b, "CPU times: user %s, sys %s, total %s\n", f(o.User), f(o.Sys), f(o.User+o.Sys))
	} else {
		fmt.Fprintf(&b, "CPU times: not measured on %s (tick reads them with getrusage, which only Unix has)\n", runtime.GOOS)
	}
	b.WriteString(o.Headline(digits) + "\n")
	if c := o.CallText(); c != "" {
		writeWrapped(&b, "Timed call: ", c)
	}
	o.writeDevice(&b, f)
	if len(o.Phases) == 0 {
		writeProvenance(&b, o.Provenance)
		return b.String()
	}
	type line struct {
		name, time, pct string
	}
	var seq, side []line
	var notes []string
	var sum time.Duration
	over := false
	pct := func(d time.Duration) string {
		if o.Wall <= 0 {
			return "–"
		}
		p := 100 * float64(d) / float64(o.Wall)
		if p > 100.05 {
			over = true
			return fmt.Sprintf("%.1f%%*", p)
		}
		return fmt.Sprintf("%.1f%%", p)
	}
	for _, p := range o.Phases {
		if p.Time == 0 {
			continue // nothing to read; the JSON keeps it
		}
		kind, note := Overlap(p.Name)
		if kind == Sequential {
			sum += p.Time
			seq = append(seq, line{p.Name, f(p.Time), pct(p.Time)})
			continue
		}
		notes = append(notes, note)
		side = append(side, line{"  " + p.Name + " " + superscript(len(notes)), f(p.Time), pct(p.Time)})
	}
	if other := o.Wall - sum; other > 0 {
		seq = append(seq, line{"other", f(other), pct(other)})
	}
	rows := append(append([]line{{"phase", "time", "wall"}}, seq...), side...)
	w := 0
	for _, r := range rows {
		w = max(w, utf8.RuneCountInString(r.name))
	}
	for _, r := range rows {
		pad := w - utf8.RuneCountInString(r.name)
		fmt.Fprintf(&b, "%s%s  %10s  %7s\n", r.name, strings.Repeat(" ", pad), r.time, r.pct)
	}
	if sum > o.Wall && o.Wall > 0 {
		writeWrapped(&b, "", fmt.Sprintf("the unindented phases sum to %s, more than the wall time: their timers ran partly outside the timed region or on several goroutines at once", f(sum)))
	}
	for i, n := range notes {
		name := strings.TrimSpace(strings.TrimSuffix(side[i].name, superscript(i+1)))
		writeWrapped(&b, superscript(i+1)+" ", name+" "+n)
	}
	if over {
		writeWrapped(&b, "* ", "over 100% of the wall time: the phase overlaps the others (see above) or was timed on several goroutines at once")
	}
	writeProvenance(&b, o.Provenance)
	return b.String()
}

// writeProvenance writes the "prov:" line of %time, its facts wrapped
// between items at TextWidth (a compiler's flags break between words,
// never inside one), continuation lines indented under the first fact.
func writeProvenance(b *strings.Builder, p Provenance) {
	const head = "prov: "
	hang := strings.Repeat(" ", len(head))
	for i, l := range joinWrapped(p.Items(), TextWidth-len(head)) {
		if i == 0 {
			b.WriteString(head + l + "\n")
		} else {
			b.WriteString(hang + l + "\n")
		}
	}
}

// CallText says which call was timed: for a JIT its number and what that
// call does; "" without a probe.
func (o *Once) CallText() string {
	if o.JITCall == 0 {
		switch o.Call {
		case "":
			return ""
		case CallOrdinary:
			return "an ordinary call (no JIT)"
		}
		return "a JIT " + string(o.Call)
	}
	what := map[CallKind]string{
		CallOrdinary: "its first call, which runs the function and compiles its kernels (call 2 captures them, later calls replay)",
		CallCapture:  "the capture: the function runs again while its kernels are recorded (later calls replay them)",
		CallReplay:   "a replay of the captured kernels (their compile and capture happened in earlier calls and are not in this time)",
	}[o.Call]
	return fmt.Sprintf("JIT call %d, %s", o.JITCall, what)
}

// superscript returns footnote mark i (1-based) as a superscript digit.
func superscript(i int) string {
	marks := []string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}
	if i >= 0 && i < len(marks) {
		return marks[i]
	}
	return fmt.Sprintf("(%d)", i)
}
