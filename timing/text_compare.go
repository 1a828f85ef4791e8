package timing

import (
	"fmt"
	"strings"
)

// maxTableLabel is the widest statement label the comparison table shows;
// longer ones are shortened with "…" so rows stay within TextWidth.
const maxTableLabel = 30

// Text renders the comparison as a table, a line saying how to read it,
// then its warnings, each line at most TextWidth characters:
//
//	statement  median/loop    ± CI   vs base  p (U test)        ratio
//	base           1.06 µs    ± 3%      base
//	fast            802 ns    ± 2%    -24.3%  p=0.000 n=57+60   0.757 ± 0.027×
func (c *Comparison) Text(digits int) string {
	if digits <= 0 {
		digits = DefaultDigits
	}
	var b strings.Builder
	labels, w := c.labels()
	line := func(cols ...string) { b.WriteString(tableLine(w, cols...) + "\n") }
	line(tableHeader...)
	for i, r := range c.Rows {
		ci := "± ?"
		if r.Stats.CIValid {
			ci = fmt.Sprintf("± %s%%", formatSig(100*rel(r.Stats), 2))
		}
		p, ratio := "", ""
		if i > 0 {
			p = fmt.Sprintf("p=%.3f n=%d+%d", r.P, c.Rows[0].Stats.N, r.Stats.N)
			ratio = fmt.Sprintf("%s ± %s×", formatSig(r.Ratio, digits), formatSig(r.RatioErr, 2))
		}
		line(labels[i], FormatDuration(r.Stats.Median, digits), ci, r.DeltaText, p, ratio)
	}
	if len(c.Rows) > 1 {
		writeWrapped(&b, "", fmt.Sprintf("median per loop ± its %.0f%% confidence interval (as %% of the median); vs base: "+
			"change of the median, ~ when p > %.2g (no detectable difference); p: two-sided Mann–Whitney U test "+
			"on the per-loop times, n samples each; ratio: median / base median ± its uncertainty",
			100*DefaultConfidence, c.Alpha))
	}
	writeWarnings(&b, "", c.Warnings)
	return b.String()
}

// tableHeader are the column names of the table Text draws.
var tableHeader = []string{"statement", "median/loop", "± CI", "vs base", "p (U test)", "ratio"}

// Header is the first line of Text: the table's column names, laid out
// for its rows.
func (c *Comparison) Header() string {
	_, w := c.labels()
	return tableLine(w, tableHeader...)
}

// labels returns the rows' labels as the table shows them and the width
// of its first column.
func (c *Comparison) labels() ([]string, int) {
	w := len("statement")
	labels := make([]string, len(c.Rows))
	for i, r := range c.Rows {
		labels[i] = shorten(r.Label, maxTableLabel)
		w = max(w, runes(labels[i]))
	}
	return labels, w
}

// tableLine lays out one line of the table, the first column w wide.
func tableLine(w int, cols ...string) string {
	return strings.TrimRight(fmt.Sprintf("%s  %11s  %6s  %8s  %-16s  %s", pad(cols[0], w), cols[1], cols[2], cols[3], cols[4], cols[5]), " ")
}

// shorten cuts s to at most n characters, ending it with "…" when cut.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
