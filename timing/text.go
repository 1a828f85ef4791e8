package timing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
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
	a := math.Abs(ns)
	unit, div := "ns", 1.0
	switch {
	case a >= 1e9:
		unit, div = "s", 1e9
	case a >= 1e6:
		unit, div = "ms", 1e6
	case a >= 1e3:
		unit, div = "µs", 1e3
	}
	return formatSig(ns/div, digits) + " " + unit
}

// formatSig formats v with digits significant digits, never in e-notation.
func formatSig(v float64, digits int) string {
	if v == 0 {
		return "0"
	}
	mag := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	dec := max(digits-mag, 0)
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// formatSI formats v with an SI prefix: "1.23 G".
func formatSI(v float64, digits int) string {
	prefixes := []string{"", "k", "M", "G", "T", "P"}
	i := 0
	for math.Abs(v) >= 1000 && i < len(prefixes)-1 {
		v /= 1000
		i++
	}
	return formatSig(v, digits) + " " + prefixes[i]
}

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

// syncPhrase describes the sync mode for titles and headlines.
func syncPhrase(m SyncMode) string {
	switch m {
	case SyncIter:
		return "synced per call"
	case SyncNone:
		return "not synced"
	}
	return "synced per sample"
}

// Headline is the first line of Text, in the spirit of IPython's:
// "12.3 µs ± 0.4 µs per loop (median ± 95% CI, 200 samples × 1,000 loops, synced per sample)".
func (r *Result) Headline(digits int) string {
	st := r.Stats
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	ci := "no CI: too few samples"
	val := f(st.Median)
	if st.CIValid {
		val += " ± " + f(st.HalfWidth())
		ci = fmt.Sprintf("median ± %.0f%% CI", 100*DefaultConfidence)
	}
	return fmt.Sprintf("%s per loop (%s, %s × %s, %s)", val, ci,
		plural(r.Repeats, "sample", "samples"), plural(r.Loops, "loop", "loops"), syncPhrase(r.Sync))
}

// Text renders r as one compact block: the headline, then the phases,
// statistics, per-loop counters, provenance and warnings. digits is the
// number of significant digits (-p); ≤ 0 means DefaultDigits.
func (r *Result) Text(digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	var b strings.Builder
	if r.Label != "" {
		fmt.Fprintf(&b, "%s\n", r.Label)
	}
	b.WriteString(r.Headline(digits) + "\n")
	st := r.Stats
	b.WriteString("  phases  " + r.phasesText(f) + "\n")
	fmt.Fprintf(&b, "  stats   mean %s ± %s sd · min %s · max %s · MAD %s · IQR %s\n",
		f(st.Mean), f(st.SD), f(st.Min), f(st.Max), f(st.MAD), f(st.IQR))
	fmt.Fprintf(&b, "          p5 %s · p95 %s · p99 %s · %s\n",
		f(st.P5), f(st.P95), f(st.P99), plural(st.LowOutliers+st.HighOutliers, "outlier", "outliers"))
	fmt.Fprintf(&b, "  loop    enqueue %s vs synced %s per loop · %s · timer %s · sync %s\n",
		f(r.EnqueueMedian), f(st.Median+r.Floor), r.floorText(f),
		f(float64(r.Resolution)), f(float64(r.SyncCost)))
	for _, l := range []struct{ head, text string }{
		{"drain", r.drainText(f)}, {"check", r.checkText()}, {"device", r.deviceText(digits)}, {"memory", r.memoryText()},
	} {
		if l.text != "" {
			fmt.Fprintf(&b, "  %-6s  %s\n", l.head, l.text)
		}
	}
	b.WriteString("  prov    " + r.Provenance.Line() + "\n")
	for _, w := range r.Warnings {
		b.WriteString("  warning: " + w.String() + "\n")
	}
	return b.String()
}

// String is Text with the default precision, so a result shown as a
// notebook cell's value (or printed with %v) reads like %timeit's output
// rather than a dump of every sample.
func (r *Result) String() string { return r.Text(0) }
