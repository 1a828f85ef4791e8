// Interpreted in every session (see stdgo.go): the generic functions of
// package cmp, and Or2, the two-operand Or that pass std-generics writes
// for cmp.Or(x, y).

package stdgo

func ᐩstdcmpᐩCompare[ᐩT ᐩordered](x, y ᐩT) int {
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

func ᐩstdcmpᐩLess[ᐩT ᐩordered](x, y ᐩT) bool { return x < y }

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
