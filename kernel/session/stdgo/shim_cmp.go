// Interpreted in every session (see stdgo.go): the generic functions of
// package cmp, and Or2, the two-operand Or that pass std-generics writes
// for cmp.Or(x, y).

package stdgo

func ᐩstdcmpᐩCompare[T ᐩordered](x, y T) int {
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

func ᐩstdcmpᐩLess[T ᐩordered](x, y T) bool { return x < y }

func ᐩstdcmpᐩOr[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}

func ᐩstdcmpᐩOr2[T comparable](x, y T) T {
	var zero T
	if x != zero {
		return x
	}
	return y
}
