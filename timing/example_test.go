package timing_test

import (
	"fmt"

	"github.com/tick-kernel/tick/timing"
)

// Summarize gives the median with its distribution-free 95% interval. The
// interval is benchmath's: the narrowest run of order statistics reaching
// 95%, here x(1)…x(7) (coverage 246/256), so the one slow outlier does not
// widen it.
func ExampleSummarize() {
	perLoop := []float64{1010, 990, 1000, 1005, 995, 1200, 1002, 998} // ns
	s := timing.Summarize(perLoop, 0.95)
	fmt.Println(timing.FormatDuration(s.Median, 3), timing.FormatDuration(s.CILo, 3), timing.FormatDuration(s.CIHi, 3), s.HighOutliers)
	// Output: 1.00 µs 990 ns 1.01 µs 1
}
