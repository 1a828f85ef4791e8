package plotting

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks a log axis so that it always has a few labelled values,
// in the axis's unit (the caller has already divided the data by it).
// gonum's LogTicks labels only powers of ten, which leaves an axis that
// spans less than a decade with no labels at all. logTicks labels powers
// of ten when that gives enough labels, else 1-2-5 steps, else every
// integer mantissa (1, 2, 3, …, 9 × 10ⁿ), else nice linear steps: the
// first of these that puts at least goodLabels labels in range, else the
// first with at least minLabels.
type logTicks struct{}

// minLabels and maxLabels bound the number of labelled ticks logTicks aims for.
const (
	minLabels  = 2
	goodLabels = 3
	maxLabels  = 7
)

// mantissas are the labelled values per decade, coarsest first.
var mantissas = [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}

// Ticks returns the ticks of a log axis over [lo, hi] (lo > 0).
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil
	}
	var labels []float64
	for _, ms := range mantissas {
		vs := decadeValues(lo, hi, ms)
		if len(vs) > maxLabels {
			vs = thin(vs, maxLabels)
		}
		if len(vs) >= goodLabels {
			labels = vs
			break
		}
		if len(labels) < minLabels && len(vs) >= minLabels {
			labels = vs // enough, but keep looking for a set with more
		}
	}
	if len(labels) < minLabels {
		return linearTicks(lo, hi)
	}
	ticks := make([]plot.Tick, 0, len(labels)+16)
	for _, v := range labels {
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v)})
	}
	// Unlabelled minor ticks at every integer mantissa, for reading off
	// values between labels.
	for _, v := range decadeValues(lo, hi, mantissas[len(mantissas)-1]) {
		if !containsValue(labels, v) {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// decadeValues lists m × 10ⁿ in [lo, hi] for every m in ms, ascending.
func decadeValues(lo, hi float64, ms []float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		p := math.Pow(10, e)
		for _, m := range ms {
			v := roundSig(m*p, 6)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// thin keeps every k-th value so that at most n remain, always keeping the
// first.
func thin(vs []float64, n int) []float64 {
	k := (len(vs) + n - 1) / n
	var out []float64
	for i := 0; i < len(vs); i += k {
		out = append(out, vs[i])
	}
	return out
}

// linearTicks labels nice linear steps (plot.DefaultTicks) for ranges too
// narrow for any two values of the form m × 10ⁿ.
func linearTicks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	out := ts[:0]
	for _, t := range ts {
		if t.Value <= 0 {
			continue
		}
		if t.Label != "" {
			t.Label = formatTick(t.Value)
		}
		out = append(out, t)
	}
	return out
}

// formatTick renders a tick value with as few digits as it needs:
// 20, 0.5, 1500, 10.25.
func formatTick(v float64) string {
	return strconv.FormatFloat(roundSig(v, 6), 'f', -1, 64)
}

// roundSig rounds v to n significant digits, removing float noise such as
// 3 × 0.1 = 0.30000000000000004.
func roundSig(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

func containsValue(vs []float64, v float64) bool {
	for _, x := range vs {
		if math.Abs(x-v) <= 1e-9*math.Abs(v) {
			return true
		}
	}
	return false
}
