package plotting

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// The tick markers here give every axis one number format: counts are
// integers ("25", never "25.00"), durations carry their natural unit
// ("7 ms", never "7000 µs") with the same number of decimals on every
// label of a linear axis, and fractions are percentages.

// durationUnit picks the unit in which the largest |v| (ns) reads as a
// number below 1000.
func durationUnit(v float64) (name string, div float64) {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return "s", 1e9
	case a >= 1e6:
		return "ms", 1e6
	case a >= 1e3:
		return "µs", 1e3
	}
	return "ns", 1
}

// durationTicks marks a linear axis of durations in nanoseconds: nice
// steps, labelled in one unit (the one the largest label needs) with one
// number of decimals.
type durationTicks struct{}

// Ticks returns the ticks of [lo, hi] (ns).
func (durationTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	top := 0.0
	for _, t := range ts {
		if t.Label != "" {
			top = math.Max(top, math.Abs(t.Value))
		}
	}
	name, div := durationUnit(top)
	dec := 0
	for _, t := range ts {
		if t.Label != "" {
			dec = max(dec, decimals(t.Value/div))
		}
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value/div, 'f', dec, 64) + " " + name
		}
	}
	return ts
}

// decimals is the number of decimals v needs (at most 6 significant
// digits, float noise removed).
func decimals(v float64) int {
	s := strconv.FormatFloat(roundSig(v, 6), 'f', -1, 64)
	for i := range len(s) {
		if s[i] == '.' {
			return len(s) - i - 1
		}
	}
	return 0
}

// logDurationTicks marks an axis whose values are log10 of nanoseconds:
// logTicks' values, each labelled in its own natural unit ("500 ns",
// "1 µs", "20 ms").
type logDurationTicks struct{}

// Ticks returns the ticks of [lo, hi] (log10 ns).
func (logDurationTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := logTicks{}.Ticks(math.Pow(10, lo), math.Pow(10, hi))
	for i := range ts {
		v := ts[i].Value
		ts[i].Value = math.Log10(v)
		if ts[i].Label != "" {
			name, div := durationUnit(v)
			ts[i].Label = formatTick(v/div) + " " + name
		}
	}
	return ts
}

// countTicks marks an axis of counts: integers only, labelled without
// decimals.
type countTicks struct{}

// Ticks returns integer ticks of [lo, hi].
func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	if hi-lo <= 6 {
		for v := math.Ceil(lo); v <= hi; v++ {
			out = append(out, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
		}
		return out
	}
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			continue // a minor tick between integers
		}
		if t.Label != "" {
			t.Label = strconv.Itoa(int(t.Value))
		}
		out = append(out, t)
	}
	return out
}

// percentTicks marks a [0, 1] axis in percent: 0%, 25%, …, 100%.
type percentTicks struct{}

// Ticks returns quarter ticks labelled in percent.
func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for v := 0.0; v <= 1.0001; v += 0.25 {
		if v >= lo-1e-9 && v <= hi+1e-9 {
			out = append(out, plot.Tick{Value: v, Label: strconv.Itoa(int(math.Round(100*v))) + "%"})
		}
	}
	return out
}

// unit is durationUnit, for charts that divide their data by a unit.
func unit(ns float64) (name string, div float64) { return durationUnit(ns) }
