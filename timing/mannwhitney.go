package timing

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// MannWhitney returns the two-sided p-value of the Mann–Whitney U test that
// xs and ys come from distributions with the same location, and U for xs
// (pairs x > y, ties counting ½). Small samples without ties (both ≤ 25)
// use the exact distribution of U; otherwise the normal approximation with
// tie and continuity corrections. Either sample empty gives p = 1.
func MannWhitney(xs, ys []float64) (p, u float64) {
	n1, n2 := len(xs), len(ys)
	if n1 == 0 || n2 == 0 {
		return 1, 0
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, x := range xs {
		all = append(all, obs{x, true})
	}
	for _, y := range ys {
		all = append(all, obs{y, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	var r1, tieSum float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // average of ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		i = j
	}
	u = r1 - float64(n1*(n1+1))/2
	if !ties && n1 <= 25 && n2 <= 25 {
		return exactUP(n1, n2, u), u
	}
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	v := float64(n1*n2) / 12 * ((n + 1) - tieSum/(n*(n-1)))
	if v <= 0 {
		return 1, u
	}
	z := (math.Abs(u-mu) - 0.5) / math.Sqrt(v)
	if z < 0 {
		return 1, u
	}
	return math.Min(1, 2*distuv.UnitNormal.Survival(z)), u
}

// exactUP is the two-sided p-value of U = u under the null hypothesis,
// from counts of orderings: N(u; m, n) = N(u-n; m-1, n) + N(u; m, n-1)
// (the largest value belongs to the first sample and beats all n of the
// second, or to the second and beats none).
func exactUP(n1, n2 int, u float64) float64 {
	// cnt[m][n] is the distribution of U for sizes m, n.
	cnt := make([][][]float64, n1+1)
	for m := range cnt {
		cnt[m] = make([][]float64, n2+1)
		for n := range cnt[m] {
			d := make([]float64, m*n+1)
			if m == 0 || n == 0 {
				d[0] = 1
			} else {
				for k := range d {
					if k >= n && k-n < len(cnt[m-1][n]) {
						d[k] += cnt[m-1][n][k-n]
					}
					if k < len(cnt[m][n-1]) {
						d[k] += cnt[m][n-1][k]
					}
				}
			}
			cnt[m][n] = d
		}
	}
	d := cnt[n1][n2]
	var total, le, ge float64
	for k, c := range d {
		total += c
		if float64(k) <= u {
			le += c
		}
		if float64(k) >= u {
			ge += c
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/total)
}
