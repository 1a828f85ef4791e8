package timing

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The phrases about devices with a clock of their own (OpenCL's profiling
// stamps): the device's time beside the host's, the copies, and what the
// device clock includes and excludes when it times the samples.

// ClockName says whose clock timed the device times: "CL's clock",
// "the clocks of CL and CL:1", "the device's clock".
func (d *DeviceTime) ClockName() string { return clockName(d.Devices) }

func clockName(devs []string) string {
	switch len(devs) {
	case 0:
		return "the device's clock"
	case 1:
		return devs[0] + "'s clock"
	}
	return "the clocks of " + strings.Join(devs[:len(devs)-1], ", ") + " and " + devs[len(devs)-1]
}

// count formats a per-loop count: "3" when whole, else "2.50".
func count(v float64, digits int) string {
	if v == math.Trunc(v) && v < 1e15 {
		return group(int(v))
	}
	return formatSig(v, digits)
}

// commands says what a device clock timed per loop: "3 kernels", "3
// kernels and 1 copy".
func (d *DeviceTime) commands(digits int) string {
	noun := func(v float64, one, many string) string {
		if v == 1 {
			return "1 " + one
		}
		return count(v, digits) + " " + many
	}
	s := noun(d.Kernels, "kernel", "kernels")
	if d.Copies > 0 {
		if d.Kernels == 0 {
			return noun(d.Copies, "copy", "copies")
		}
		s += " and " + noun(d.Copies, "copy", "copies")
	}
	return s
}

// interval is " (median; [lo, hi])" or " (median)" without a valid one.
func interval(st Stats, f func(float64) string) string {
	if !st.CIValid {
		return " (median)"
	}
	return fmt.Sprintf(" (median; [%s, %s])", f(st.CILo), f(st.CIHi))
}

// deviceClockText is the device row's first line: the host's time and
// the device clock's side by side, and what the difference is.
func (r *Result) deviceClockText(f func(float64) string, digits int) string {
	d := r.Device
	if d == nil {
		return ""
	}
	dev := d.Stats
	host, hostCI := r.Stats, r.Stats
	if d.Host != nil {
		host, hostCI = *d.Host, *d.Host
	}
	by := d.ClockName()
	if r.TimeBy == ClockDevice {
		return fmt.Sprintf("%s %s per loop in %s", by, f(dev.Median), d.commands(digits)) + sep +
			fmt.Sprintf("host %s per loop%s for the same samples", f(host.Median), interval(hostCI, f)) + sep +
			restText(host.Median, dev.Median, r.Sync, f)
	}
	hostWhat := "host"
	if r.Sync == SyncNone && r.Async {
		hostWhat = "host (enqueueing only, --sync=none)"
	}
	return fmt.Sprintf("%s %s per loop, device %s in %s by %s%s", hostWhat, f(host.Median), f(dev.Median), d.commands(digits), by,
		interval(dev, f)) + sep + restText(host.Median, dev.Median, r.Sync, f)
}

// restText says what the host's time is beyond the device's.
func restText(host, dev float64, sync SyncMode, f func(float64) string) string {
	switch {
	case sync == SyncNone:
		return "the host's clock did not wait for the device's work, which its clock timed all the same"
	case host >= dev:
		return fmt.Sprintf("the other %s is the host's: the interpreter, launching, synchronizing, and the device idle between commands", f(host-dev))
	}
	return "the device's time exceeds the host's: its commands overlapped (several devices), or the two clocks disagree"
}

// transfersText is the transfers row: copies per loop, their bytes and
// their rates on the host's clock and the device's ("" without copies).
func (r *Result) transfersText(f func(float64) string, digits int) string {
	t := r.Transfers
	if t == nil {
		return ""
	}
	copies := "copies"
	if t.Copies == 1 {
		copies = "copy"
	}
	s := fmt.Sprintf("%s %s per loop", count(t.Copies, digits), copies)
	if len(t.Directions) > 0 {
		s += " (" + strings.Join(t.Directions, ", ") + ")"
	}
	s += sep + formatSI(t.Bytes, digits) + "B per loop" + sep + "host " + f(t.Host) + rate(t.Bytes, t.Host, digits)
	if t.Clocked > 0 {
		by := "the device's clock"
		if r.Device != nil {
			by = r.Device.ClockName()
		}
		s += sep + by + " " + f(t.Device) + rate(t.Bytes*t.Clocked/t.Copies, t.Device, digits)
	}
	return s
}

// rate is " (5.83 GB/s)" for bytes in ns, "" when ns is 0.
func rate(bytes, ns float64, digits int) string {
	if ns <= 0 {
		return ""
	}
	return " (" + formatSI(bytes/ns*1e9, digits) + "B/s)"
}

// clockCaveats is the clock row of --clock=device: what the device clock
// includes and excludes, and why its time is not a kernel benchmark.
func (r *Result) clockCaveats() string {
	if r.TimeBy != ClockDevice {
		return ""
	}
	by := "the device's clock"
	if r.Device != nil {
		by = r.Device.ClockName()
	}
	return strings.Join([]string{
		"each sample is the time by " + by + " of its calls' kernels and copies, each from its started to its ended stamp, summed",
		"not in it: the interpreter, launching, queueing, synchronizing, and the device idle between commands; what a call costs " +
			"is the host's time (the device row)",
		"a warmed replay of the same inputs runs from warm caches: this is its kernels' time in this program, not a kernel " +
			"benchmark; for one, vary sizes, inputs and cache conditions",
		"the stamps are the driver's profiling events, with its resolution and its idea of a start (OpenCL on CPUs, pocl, " +
			"counts its work-group scheduling in)",
	}, sep)
}

// writeDevice writes %time's lines for a device with a clock and for
// copies: the device's time of the call beside the wall time, and each
// direction's copies with their bytes and rates.
func (o *Once) writeDevice(b *strings.Builder, f func(time.Duration) string) {
	if d := o.Device; d != nil {
		what := []string{}
		if d.Kernels > 0 {
			what = append(what, fmt.Sprintf("%s in %s", f(d.KernelTime), plural(int(d.Kernels), "kernel", "kernels")))
		}
		if d.Copies > 0 {
			what = append(what, fmt.Sprintf("%s in %s", f(d.CopyTime), plural(int(d.Copies), "copy", "copies")))
		}
		s := fmt.Sprintf("%s by %s (each command from its started to its ended stamp)", strings.Join(what, " and "), clockName(d.Devices))
		if rest := o.Wall - d.KernelTime - d.CopyTime; rest >= 0 {
			s += fmt.Sprintf("; the other %s of the wall time is the host's: compiling, launching, waiting, the interpreter", f(rest))
		}
		writeWrapped(b, "Device time: ", s)
	}
	for _, t := range o.Transfers {
		s := fmt.Sprintf("%s %s of %sB: host %s%s", t.Direction(), plural(t.Count, "copy", "copies"), formatSI(float64(t.Bytes), 3),
			f(t.Host), rate(float64(t.Bytes), float64(t.Host), 3))
		if t.Device > 0 {
			s += fmt.Sprintf(", device %s%s", f(t.Device), rate(float64(t.Bytes), float64(t.Device), 3))
		}
		writeWrapped(b, "Transfer: ", s)
	}
}
