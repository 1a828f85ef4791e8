// Interpreted in every session (see stdgo.go), first: the builtins of Go
// 1.21+ that yaegi (frozen at Go 1.22's library, 1.21's language) lacks,
// as generic package-level functions, and the constraint the shims share.
// Calls with only untyped constants are folded by the rewrite pass
// fold-min-max instead (yaegi cannot infer T from them).

package stdgo

type ᐩordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// A NaN (v != v) is the result of min and max when any operand is one, as
// for Go's builtins.
func min[ᐩT ᐩordered](x ᐩT, y ...ᐩT) ᐩT {
	for _, v := range y {
		if x != x {
			return x
		}
		if v < x || v != v {
			x = v
		}
	}
	return x
}

func max[ᐩT ᐩordered](x ᐩT, y ...ᐩT) ᐩT {
	for _, v := range y {
		if x != x {
			return x
		}
		if v > x || v != v {
			x = v
		}
	}
	return x
}
