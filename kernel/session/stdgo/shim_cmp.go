// Interpreted in every session (see stdgo.go): the generic functions of
// package cmp, and Or2, the two-operand Or that pass std-generics writes
// for cmp.Or(x, y).

package stdgo

// x != x only for a NaN: cmp orders a NaN before every other value and
// equal to a NaN.
func ᐩstdcmpᐩCompare[ᐩT ᐩordered](x, y ᐩT) int {
	xNaN, yNaN := x != x, y != y
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

func ᐩstdcmpᐩLess[ᐩT ᐩordered](x, y ᐩT) bool { return (x != x && y == y) || x < y }

func ᐩstdcmpᐩOr[ᐩT comparable](vals ...ᐩT) ᐩT {
	var zero ᐩT
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}

func ᐩstdcmpᐩOr2[ᐩT comparable](x, y ᐩT) ᐩT {
	var zero ᐩT
	if x != zero {
		return x
	}
	return y
}
