// Package units formats the numbers tick shows with one style everywhere:
// significant digits, never e-notation, and SI prefixes glued to the unit
// ("268 MFLOP", "1.57 MB", "524 kB/s"), in the timing text, %viz, %prof and
// the runtime's counters alike.
package units

import (
	"math"
	"strconv"
)

// Round rounds v to digits significant digits.
func Round(v float64, digits int) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// Sig formats v with digits significant digits, never in e-notation.
func Sig(v float64, digits int) string {
	if v == 0 {
		return "0"
	}
	v = Round(v, digits) // 9.9996 at 3 digits is 10.0, not 10.00
	mag := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	dec := max(digits-mag, 0)
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// SI formats v with an SI prefix and a space before it, for a unit to
// follow: "1.23 G" (+ "FLOP").
func SI(v float64, digits int) string {
	prefixes := []string{"", "k", "M", "G", "T", "P"}
	i := 0
	for math.Abs(v) >= 1000 && i < len(prefixes)-1 {
		v /= 1000
		i++
	}
	// 999.96 k rounds to "1000 k" at 3 digits: that is 1.00 M.
	if i < len(prefixes)-1 && math.Abs(Round(v, digits)) >= 1000 {
		v /= 1000
		i++
	}
	return Sig(v, digits) + " " + prefixes[i]
}

// Quantity is v with three significant digits, an SI prefix and unit:
// Quantity(1572864, "FLOP") is "1.57 MFLOP", Quantity(786432, "B") "786 kB".
func Quantity(v float64, unit string) string { return SI(v, 3) + unit }
