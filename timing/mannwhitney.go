package timing

import (
	"errors"

	"github.com/aclements/go-moremath/stats"
)

// MannWhitney returns the two-sided p-value of the Mann–Whitney U test that
// xs and ys come from distributions with the same location, and U for xs
// (pairs x > y, ties counting ½). It is go-moremath's stats.MannWhitneyUTest,
// the test benchmath.AssumeNothing.Compare runs (Compare uses that): exact
// for small samples, the normal approximation with tie and continuity
// corrections above. Either sample empty gives p = 1, U = 0; all values
// equal gives p = 1, U = len(xs)·len(ys)/2.
func MannWhitney(xs, ys []float64) (p, u float64) {
	res, err := stats.MannWhitneyUTest(xs, ys, stats.LocationDiffers)
	switch {
	case errors.Is(err, stats.ErrSamplesEqual):
		return 1, float64(len(xs)*len(ys)) / 2
	case err != nil:
		return 1, 0
	}
	return res.P, res.U
}
