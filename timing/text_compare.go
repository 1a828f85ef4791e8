package timing

import (
	"fmt"
	"math"
	"strings"
)

// maxTableLabel is the widest statement label the comparison table shows;
// longer ones are shortened with "…" so rows stay within TextWidth.
const maxTableLabel = 30

// Text renders the comparison as a table, a line saying how to read it,
// one sentence per row with its verdict, then the warnings, each line at
// most TextWidth characters. Intervals are shown as times and ratios, never
// as ± percentages:
//
//	statement  median/loop  95% CI of the median  vs base  ratio [95% CI]
//	base           1.06 µs  [1.02 µs, 1.10 µs]       base
//	fast            802 ns  [790 ns, 815 ns]       -24.3%  0.757× [0.741, 0.772]
func (c *Comparison) Text(digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	var b strings.Builder
	l := c.layout(digits)
	b.WriteString(l.header + "\n")
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	level := fmt.Sprintf("%.0f%%", 100*(1-c.Alpha))
	for i, r := range c.Rows {
		ratio := ""
		if i > 0 && !math.IsNaN(r.Estimate.Ratio) {
			ratio = fmt.Sprintf("%s× [%s, %s]", formatSig(r.Ratio, digits), formatSig(r.RatioLo, digits), formatSig(r.RatioHi, digits))
		}
		b.WriteString(l.line(l.labels[i], f(r.Stats.Median), l.cis[i], r.DeltaText, ratio) + "\n")
	}
	if len(c.Rows) > 1 {
		writeWrapped(&b, "", fmt.Sprintf("median per loop and its %s confidence interval; ratio: %s; vs base: the change "+
			"when the ratio's interval excludes 1, ~ when it contains 1 (no detectable difference), ? when the measurement cannot tell",
			level, c.method(level)))
		for _, r := range c.Rows[1:] {
			writeWrapped(&b, "", r.sentence(c, digits))
		}
	}
	writeWarnings(&b, "", c.Warnings)
	return b.String()
}

// tableLayout is the table's columns: the rows' labels and median
// intervals as shown, and the widths of those two columns.
type tableLayout struct {
	labels, cis []string
	w, wci      int
	header      string
}

// layout lays the table out for digits significant digits.
func (c *Comparison) layout(digits int) tableLayout {
	if digits <= 0 {
		digits = DefaultDigits
	}
	f := func(ns float64) string { return FormatDuration(ns, digits) }
	level := fmt.Sprintf("%.0f%%", 100*(1-c.Alpha))
	l := tableLayout{labels: make([]string, len(c.Rows)), cis: make([]string, len(c.Rows)),
		w: len("statement"), wci: len(level + " CI of the median")}
	for i, r := range c.Rows {
		l.labels[i] = shorten(r.Label, maxTableLabel)
		l.w = max(l.w, runes(l.labels[i]))
		l.cis[i] = "(too few samples)"
		if r.Stats.CIValid {
			l.cis[i] = fmt.Sprintf("[%s, %s]", f(r.Stats.CILo), f(r.Stats.CIHi))
		}
		l.wci = max(l.wci, runes(l.cis[i]))
	}
	l.header = l.line("statement", "median/loop", level+" CI of the median", "vs base", "ratio ["+level+" CI]")
	return l
}

func (l tableLayout) line(cols ...string) string {
	return strings.TrimRight(fmt.Sprintf("%s  %11s  %s  %7s  %s", pad(cols[0], l.w), cols[1], pad(cols[2], l.wci), cols[3], cols[4]), " ")
}

// Header is the first line of Text(digits): the table's column names,
// laid out for its rows.
func (c *Comparison) Header(digits int) string { return c.layout(digits).header }

// method says how the ratio and its interval were computed.
func (c *Comparison) method(level string) string {
	if c.Interleaved {
		return "the median of the per-round ratios (each round one sample of each statement, in random order) and its " + level +
			" interval from the sign test, exact whatever the load did"
	}
	return "median / base median and its " + level + " interval from a block bootstrap (samples resampled in blocks, " +
		"so the samples one burst of load slowed count once)"
}

// sentence is the row's verdict in words, with the evidence.
func (r ComparisonRow) sentence(c *Comparison, digits int) string {
	e := r.Estimate
	how := fmt.Sprintf("%d samples in blocks of %d, %d resamples, p%s from the same resamples", e.N, e.Block, e.Resamples, pText(r.P))
	if e.Paired {
		how = fmt.Sprintf("%d rounds: %d above 1, %d below; sign test p%s", e.N, e.Above, e.Below, pText(r.P))
	}
	iv := fmt.Sprintf("[%s, %s]", formatSig(r.RatioLo, digits), formatSig(r.RatioHi, digits))
	base := c.Rows[0].Label
	switch r.Verdict {
	case VerdictSlower, VerdictFaster:
		return fmt.Sprintf("%s is %.1f%% %s than %s: the ratio's interval %s excludes 1 (%s)",
			r.Label, math.Abs(100*r.Delta), r.Verdict, base, iv, how)
	case VerdictCannotTell:
		return fmt.Sprintf("%s vs %s: cannot tell: %s (%s)", r.Label, base, r.Why, how)
	}
	if r.WithinDrift {
		return fmt.Sprintf("%s vs %s: no difference claimed: the ratio's interval %s excludes 1, but by less than the drift "+
			"allowance of %.0f%% for results measured one after the other (%s)", r.Label, base, iv, 100*c.DriftAllowance, how)
	}
	return fmt.Sprintf("%s vs %s: no detectable difference: the ratio's interval %s contains 1 (%s)", r.Label, base, iv, how)
}

// pText formats a bootstrap p-value ("<0.001" below the resolution).
func pText(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("=%.3f", p)
}

// shorten cuts s to at most n characters, ending it with "…" when cut.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
