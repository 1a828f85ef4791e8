package timing

import (
	"fmt"
	"strings"
)

// The phrases Text puts on its lines: what each phase's call was, what the
// floor covers, what was checked, what was left queued. Kept apart from
// the layout so the layout can change without changing what is said.

// phasesText describes the calls before sampling: the cold call (its JIT
// call number and kind, and the compile-cache outcomes), the capture
// call(s) with their time, the first replay, the warm-up.
func (r *Result) phasesText(f func(float64) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cold %s", f(float64(r.Cold.Time)))
	var about []string
	switch c := r.Cold; {
	case c.JITCall > 0:
		about = append(about, fmt.Sprintf("JIT call %d, %s", c.JITCall, c.Kind))
	case r.JIT && c.Kind != "":
		about = append(about, string(c.Kind)+" call")
	}
	if c := r.Cold; c.Compiles > 0 || c.DiskHits > 0 || c.CacheHits > 0 {
		about = append(about, fmt.Sprintf("%d compiled, %d from disk, %s", c.Compiles, c.DiskHits,
			plural(int(c.CacheHits), "memory hit", "memory hits")))
	}
	if len(about) > 0 {
		b.WriteString(" (" + strings.Join(about, ": ") + ")")
	}
	if r.Captures > 0 {
		if r.Cold.Kind == CallCapture && r.Captures == 1 {
			b.WriteString(" · capture: the cold call")
		} else {
			fmt.Fprintf(&b, " · capture %s %s", plural(r.Captures, "call", "calls"), f(float64(r.CaptureTime)))
		}
	}
	if r.JIT {
		switch {
		case !r.Replaying:
			b.WriteString(" · not replaying")
		case r.Cold.Kind != CallReplay && r.FirstReplay > 0:
			fmt.Fprintf(&b, " · first replay %s", f(float64(r.FirstReplay)))
		}
	}
	fmt.Fprintf(&b, " · warm-up %s", plural(r.Warmups, "call", "calls"))
	if r.WarmCall > 0 {
		fmt.Fprintf(&b, " (%s per call)", f(float64(r.WarmCall)))
	}
	return b.String()
}

// CPUWaitLimit is how much longer than the CPU time the wall time per
// loop may be before the cpu line says the thread waited for a CPU.
const CPUWaitLimit = 1.1

// HostBound reports whether the statement ran on the host only (no kernel
// launched), so the calling thread's CPU time is all of its work.
func (r *Result) HostBound() bool { return r.Counters == nil || r.Counters.Kernels == 0 }

// cpuText is the cpu line, for a host-bound statement whose thread's CPU
// time was measured: the CPU time per loop beside the wall time, and
// whether the two disagree because the thread waited for a CPU.
func (r *Result) cpuText(f func(float64) string) string {
	c := r.CPU
	if c == nil || !r.HostBound() || c.Median <= 0 {
		return ""
	}
	s := fmt.Sprintf("%s per loop of the calling thread's CPU time (median; [%s, %s]; the floor's %s subtracted)",
		f(c.Median), f(c.CILo), f(c.CIHi), f(r.FloorCPU))
	if !c.CIValid {
		s = fmt.Sprintf("%s per loop of the calling thread's CPU time (median; the floor's %s subtracted)", f(c.Median), f(r.FloorCPU))
	}
	w := r.Stats.Median
	if w <= CPUWaitLimit*c.Median {
		return s + sep + fmt.Sprintf("wall %s agrees: the thread hardly waited for a CPU", f(w))
	}
	return s + sep + fmt.Sprintf("wall %s is %.1f× that: the thread waited for a CPU about %.0f%% of the time, and the CPU time "+
		"is what the statement costs when it has a CPU to itself", f(w), w/c.Median, 100*(1-c.Median/w))
}

// enqueueText compares the time until the calls returned with the time
// until the device finished, both by the host's clock.
func (r *Result) enqueueText(f func(float64) string) string {
	if d := r.Device; r.TimeBy == ClockDevice && d != nil && d.Host != nil {
		return fmt.Sprintf("enqueue %s vs synced %s per loop by the host's clock", f(r.EnqueueMedian), f(d.Host.Median+d.HostFloor))
	}
	return fmt.Sprintf("enqueue %s vs synced %s per loop", f(r.EnqueueMedian), f(r.Stats.Median+r.Floor))
}

// floorText says what the subtracted floor is and what it covers.
func (r *Result) floorText(f func(float64) string) string {
	covers := "a call that does nothing, the clock reads and the syncs"
	if r.FloorSource == "empty statement" {
		covers = "the interpreter's call into the loop, the loop, the clock reads and the syncs"
	}
	s := fmt.Sprintf("floor %s per loop subtracted (%s, %s through the same harness: %s)",
		f(r.Floor), r.FloorSource, plural(len(r.FloorSamples), "sample", "samples"), covers)
	if d := r.Device; r.TimeBy == ClockDevice && d != nil {
		s = fmt.Sprintf("floor %s per loop by %s (%s, %s through the same harness: it runs nothing there); "+
			"%s per loop by the host's clock, subtracted from the host's time",
			f(r.Floor), d.ClockName(), r.FloorSource, plural(len(r.FloorSamples), "sample", "samples"), f(d.HostFloor))
	}
	if r.FloorClamped > 0 {
		s += fmt.Sprintf("; %s of %d below the floor count as 0, not as negative times (the statement costs less than the harness's own variation)",
			plural(r.FloorClamped, "sample", "samples"), r.Repeats)
	}
	return s
}

// deviceText is the device line: kernels, estimated FLOPs and bytes per
// loop and, when the times include the device's work, their rates.
func (r *Result) deviceText(digits int) string {
	c := r.Counters
	switch {
	case c == nil:
		return ""
	case c.Kernels == 0 && r.Transfers != nil:
		return "no kernels launched: the statement only copied data (the transfers row)"
	case c.Kernels == 0:
		return "no kernels launched: the statement ran on the host only"
	case c.NoThroughput != "":
		return fmt.Sprintf("%s kernels · %sFLOP · %sB per loop, estimated; no FLOP/s or B/s: %s",
			formatSig(c.Kernels, digits), formatSI(c.FLOPs, digits), formatSI(c.Bytes, digits), c.NoThroughput)
	case c.FLOPs == 0 && c.Bytes == 0:
		return fmt.Sprintf("%s kernels per loop, with no FLOPs or bytes to estimate", formatSig(c.Kernels, digits))
	}
	return fmt.Sprintf("%s kernels · %sFLOP (%sFLOP/s) · %sB (%sB/s) per loop, estimated",
		formatSig(c.Kernels, digits), formatSI(c.FLOPs, digits), formatSI(c.GFLOPS*1e9, digits),
		formatSI(c.Bytes, digits), formatSI(c.GBps*1e9, digits))
}

// memoryText is the memory line: the statement's allocations per call
// (the loop's subtracted), who makes them, and the collections.
func (r *Result) memoryText() string {
	m := r.Memory
	// Like Go's testing package, B/op and allocs/op are truncated to integers.
	s := fmt.Sprintf("%s B/op · %s allocs/op", group(int(m.BytesPerOp)), group(int(m.AllocsPerOp)))
	switch m.Source {
	case SourceInterpreter:
		s += " (the interpreter's, calling into the runtime: a replay allocates nothing)"
	case SourceRuntime:
		s += " (mostly the runtime building graphs: eager operations)"
	}
	s += " · " + plural(int(m.GCCycles), "GC cycle", "GC cycles") + " in samples"
	if m.Collections > 0 {
		s += " · " + plural(m.Collections, "collection", "collections") + " run between samples"
	}
	return s
}

// checkText says on which calls --check held ("" without a check).
func (r *Result) checkText() string {
	if len(r.Checks) == 0 {
		return ""
	}
	var parts []string
	for _, c := range r.Checks {
		p := c.When
		if c.Call != "" {
			p += " (" + string(c.Call) + ")"
		}
		parts = append(parts, p)
	}
	return "held after " + strings.Join(parts, ", ")
}

// drainText says what --sync=none left queued ("" otherwise).
func (r *Result) drainText(f func(float64) string) string {
	if r.Sync != SyncNone {
		return ""
	}
	if r.Drain == 0 {
		return "nothing was left queued after the samples"
	}
	return fmt.Sprintf("after the samples' calls returned the device needed %s more (at most %s after one sample), "+
		"drained outside the timed intervals: the queue is empty", f(float64(r.Drain)), f(float64(r.DrainMax)))
}
