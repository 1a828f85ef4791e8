package timing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tick-kernel/tick/internal/units"
)

// DefaultDigits is the default number of significant digits in Text.
const DefaultDigits = 3

// FormatDuration formats ns nanoseconds with digits significant digits in
// the largest unit that keeps the value ≥ 1: "12.3 µs", "840 ns", "1.20 s".
func FormatDuration(ns float64, digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return "?"
	}
	units := []struct {
		name string
		div  float64
	}{{"ns", 1}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}
	i := 0
	for i < len(units)-1 && math.Abs(ns) >= units[i+1].div {
		i++
	}
	// 999.6 ns rounds to "1000" at 3 digits: that is 1.00 µs.
	if i < len(units)-1 && math.Abs(roundTo(ns/units[i].div, digits)) >= 1000 {
		i++
	}
	return formatSig(ns/units[i].div, digits) + " " + units[i].name
}

// roundTo, formatSig and formatSI are internal/units' (one number style
// across tick's outputs).
func roundTo(v float64, digits int) float64  { return units.Round(v, digits) }
func formatSig(v float64, digits int) string { return units.Sig(v, digits) }
func formatSI(v float64, digits int) string  { return units.SI(v, digits) }

func itoa(n int) string { return strconv.Itoa(n) }

// group formats n with thousands separators: 1,000,000.
func group(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func durationOf(ns float64) time.Duration { return time.Duration(math.Round(ns)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return group(n) + " " + many
}

// syncPhrase describes the sync mode for titles and the loop line.
func syncPhrase(m SyncMode) string {
	switch m {
	case SyncIter:
		return "synced per call"
	case SyncNone:
		return "not synced"
	}
	return "synced per sample"
}

// SymmetryLimit is how lopsided a confidence interval may be and still be
// shown as median ± half-width: the shorter side must be at least this
// fraction of the longer. A more lopsided interval is shown as [lo, hi].
const SymmetryLimit = 0.8

// Symmetric reports whether the median's interval is close enough to
// symmetric to be written as median ± HalfWidth (see SymmetryLimit).
func (s Stats) Symmetric() bool {
	lo, hi := s.Median-s.CILo, s.CIHi-s.Median
	if hi <= 0 && lo <= 0 {
		return true
	}
	return min(lo, hi) >= SymmetryLimit*max(lo, hi)
}

// Headline is the first line of Text, in the spirit of IPython's, saying
// what the ± means:
//
//	12.3 µs ± 410 ns per loop (median ± 95% confidence interval, 200 samples × 1,000 loops)
//	1.08 µs [930 ns, 5.53 µs] per loop (median [95% confidence interval], 57 samples × 30,000 loops)
//
// Text breaks a headline wider than TextWidth before its parenthesis.
func (r *Result) Headline(digits int) string {
	st := r.Stats
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	level := fmt.Sprintf("%.0f%% confidence interval", 100*DefaultConfidence)
	counts := fmt.Sprintf("%s × %s", plural(r.Repeats, "sample", "samples"), plural(r.Loops, "loop", "loops"))
	by := "" // "per loop (by CL's clock: median ± …)" when the device's clock timed the samples
	if r.TimeBy == ClockDevice {
		by = "by the device's clock: "
		if r.Device != nil {
			by = "by " + r.Device.ClockName() + ": "
		}
	}
	switch {
	case !st.CIValid:
		return fmt.Sprintf("%s per loop (%smedian of %s; too few samples for a %s)", f(st.Median), by, counts, level)
	case st.Symmetric():
		return fmt.Sprintf("%s ± %s per loop (%smedian ± %s, %s)", f(st.Median), f(st.HalfWidth()), by, level, counts)
	}
	return fmt.Sprintf("%s [%s, %s] per loop (%smedian [%s], %s)", f(st.Median), f(st.CILo), f(st.CIHi), by, level, counts)
}

// Text renders r as one compact block: the label and headline, then
// labelled rows (phases, statistics, the loop and its floor, per-loop
// device counters, memory, provenance) and the warnings, each line at most
// TextWidth characters. digits is the number of significant digits (-p);
// ≤ 0 means DefaultDigits.
func (r *Result) Text(digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	var b strings.Builder
	if r.Label != "" {
		writeWrapped(&b, "", r.Label)
	}
	writeHeadline(&b, r.Headline(digits))
	writeRows(&b, r.rows(digits))
	writeWarnings(&b, "  ", r.Warnings)
	return b.String()
}

// writeHeadline writes h on one line, or, when it is wider than
// TextWidth, broken before its parenthesis (then between words).
func writeHeadline(b *strings.Builder, h string) {
	if runes(h) <= TextWidth {
		b.WriteString(h + "\n")
		return
	}
	if i := strings.Index(h, " ("); i > 0 {
		writeWrapped(b, "", h[:i])
		writeWrapped(b, "  ", h[i+1:])
		return
	}
	writeWrapped(b, "", h)
}

// writeWarnings writes one wrapped "warning: what; what to do" per warning.
func writeWarnings(b *strings.Builder, indent string, ws []Warning) {
	for _, w := range ws {
		writeWrapped(b, indent+"warning: ", w.String())
	}
}

// rows are the labelled lines of Text, in order. What each line says is
// in describe.go (phrases joined with " · "); here it becomes items that
// wrap between phrases.
func (r *Result) rows(digits int) []row {
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	st := r.Stats
	rows := []row{
		{"phases", [][]string{items(r.phasesText(f))}},
		{"stats", [][]string{
			{fmt.Sprintf("mean %s ± %s sd", f(st.Mean), f(st.SD)), "min " + f(st.Min), "max " + f(st.Max), "MAD " + f(st.MAD), "IQR " + f(st.IQR)},
			{"p5 " + f(st.P5), "p95 " + f(st.P95), "p99 " + f(st.P99), plural(st.LowOutliers+st.HighOutliers, "outlier", "outliers")},
		}},
		{"loop", [][]string{
			{syncPhrase(r.Sync), r.enqueueText(f)},
			{r.floorText(f)},
			{"timer " + f(float64(r.Resolution)), "sync " + f(float64(r.SyncCost))},
		}},
	}
	for _, l := range []struct{ label, text string }{
		{"cpu", r.cpuText(f)}, {"drain", r.drainText(f)}, {"check", r.checkText()}, {"device", r.deviceText(digits)},
		{"transfers", r.transfersText(f, digits)}, {"clock", r.clockCaveats()}, {"memory", r.memoryText()},
	} {
		if l.text != "" {
			rows = append(rows, row{l.label, [][]string{items(l.text)}})
		}
	}
	if d := r.deviceClockText(f, digits); d != "" { // the device's clock beside the host's, first on the device row
		for i := range rows {
			if rows[i].label == "device" {
				rows[i].groups = append([][]string{items(d)}, rows[i].groups...)
			}
		}
	}
	return append(rows, row{"provenance", [][]string{r.Provenance.Items()}})
}

// items splits a line of phrases joined with " · " into row items.
func items(line string) []string { return strings.Split(line, sep) }

// Items lists the provenance facts in the order Text shows them (Line's
// phrases).
func (p Provenance) Items() []string { return items(p.Line()) }

// String is Text with the default precision, so a result shown as a
// notebook cell's value (or printed with %v) reads like %timeit's output
// rather than a dump of every sample.
func (r *Result) String() string { return r.Text(0) }
