// Interpreted in every session (see stdgo.go): the generic functions of
// package slices; its iterators (All, Values, Collect, Sorted) are
// functions taking a yield callback.

package stdgo

func ᐩstdslicesᐩSort[ᐩE ᐩordered](x []ᐩE) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return x[i] < x[j] }, false)
}

func ᐩstdslicesᐩSortFunc[ᐩE any](x []ᐩE, cmp func(a, b ᐩE) int) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 }, false)
}

func ᐩstdslicesᐩSortStableFunc[ᐩE any](x []ᐩE, cmp func(a, b ᐩE) int) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 }, true)
}

func ᐩstdslicesᐩIsSorted[ᐩE ᐩordered](x []ᐩE) bool {
	for i := 1; i < len(x); i++ {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩIsSortedFunc[ᐩE any](x []ᐩE, cmp func(a, b ᐩE) int) bool {
	for i := 1; i < len(x); i++ {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩMax[ᐩE ᐩordered](x []ᐩE) ᐩE {
	if len(x) == 0 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v) // a NaN is the maximum, as in Go
	}
	return m
}

func ᐩstdslicesᐩMin[ᐩE ᐩordered](x []ᐩE) ᐩE {
	if len(x) == 0 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		m = min(m, v) // a NaN is the minimum, as in Go
	}
	return m
}

func ᐩstdslicesᐩMaxFunc[ᐩE any](x []ᐩE, cmp func(a, b ᐩE) int) ᐩE {
	if len(x) == 0 {
		panic("slices.MaxFunc: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if cmp(v, m) > 0 {
			m = v
		}
	}
	return m
}

func ᐩstdslicesᐩMinFunc[ᐩE any](x []ᐩE, cmp func(a, b ᐩE) int) ᐩE {
	if len(x) == 0 {
		panic("slices.MinFunc: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if cmp(v, m) < 0 {
			m = v
		}
	}
	return m
}

func ᐩstdslicesᐩReverse[ᐩE any](x []ᐩE) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

func ᐩstdslicesᐩClone[ᐩE any](x []ᐩE) []ᐩE {
	if x == nil {
		return x
	}
	out := make([]ᐩE, len(x))
	copy(out, x)
	return out
}

func ᐩstdslicesᐩClip[ᐩE any](x []ᐩE) []ᐩE { return x[:len(x):len(x)] }

func ᐩstdslicesᐩGrow[ᐩE any](x []ᐩE, n int) []ᐩE {
	if n < 0 {
		panic("cannot be negative")
	}
	if cap(x)-len(x) < n {
		// as Go's slices.Grow: append's growth, so cap is what Go's is
		return append(x[:cap(x)], make([]ᐩE, n)...)[:len(x)]
	}
	return x
}

func ᐩstdslicesᐩCompact[ᐩE comparable](x []ᐩE) []ᐩE {
	if len(x) < 2 {
		return x
	}
	out := x[:1]
	for _, v := range x[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func ᐩstdslicesᐩCompactFunc[ᐩE any](x []ᐩE, eq func(a, b ᐩE) bool) []ᐩE {
	if len(x) < 2 {
		return x
	}
	out := x[:1]
	for _, v := range x[1:] {
		if !eq(out[len(out)-1], v) {
			out = append(out, v)
		}
	}
	return out
}

func ᐩstdslicesᐩIndex[ᐩE comparable](x []ᐩE, v ᐩE) int {
	for i := range x {
		if x[i] == v {
			return i
		}
	}
	return -1
}

func ᐩstdslicesᐩIndexFunc[ᐩE any](x []ᐩE, f func(ᐩE) bool) int {
	for i := range x {
		if f(x[i]) {
			return i
		}
	}
	return -1
}

func ᐩstdslicesᐩContains[ᐩE comparable](x []ᐩE, v ᐩE) bool {
	for i := range x {
		if x[i] == v {
			return true
		}
	}
	return false
}

func ᐩstdslicesᐩContainsFunc[ᐩE any](x []ᐩE, f func(ᐩE) bool) bool {
	for i := range x {
		if f(x[i]) {
			return true
		}
	}
	return false
}

func ᐩstdslicesᐩEqual[ᐩE comparable](a, b []ᐩE) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩEqualFunc[ᐩE, ᐩF any](a []ᐩE, b []ᐩF, eq func(ᐩE, ᐩF) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩCompare[ᐩE ᐩordered](a, b []ᐩE) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] < b[i] {
			return -1
		}
		if a[i] > b[i] {
			return 1
		}
	}
	if len(a) < len(b) {
		return -1
	}
	if len(a) > len(b) {
		return 1
	}
	return 0
}

func ᐩstdslicesᐩInsert[ᐩE any](x []ᐩE, i int, vs ...ᐩE) []ᐩE {
	if i < 0 || i > len(x) {
		panic("slices.Insert: index out of range")
	}
	out := make([]ᐩE, 0, len(x)+len(vs))
	out = append(out, x[:i]...)
	out = append(out, vs...)
	return append(out, x[i:]...)
}

func ᐩstdslicesᐩDelete[ᐩE any](x []ᐩE, i, j int) []ᐩE {
	if i < 0 || j > len(x) || i > j {
		panic("slices.Delete: index out of range")
	}
	n := copy(x[i:], x[j:])
	var zero ᐩE
	for k := i + n; k < len(x); k++ {
		x[k] = zero
	}
	return x[:i+n]
}

func ᐩstdslicesᐩDeleteFunc[ᐩE any](x []ᐩE, del func(ᐩE) bool) []ᐩE {
	out := x[:0]
	for _, v := range x {
		if !del(v) {
			out = append(out, v)
		}
	}
	var zero ᐩE
	for k := len(out); k < len(x); k++ {
		x[k] = zero
	}
	return out
}

func ᐩstdslicesᐩReplace[ᐩE any](x []ᐩE, i, j int, vs ...ᐩE) []ᐩE {
	tail := append([]ᐩE{}, x[j:]...)
	return append(append(x[:i], vs...), tail...)
}

func ᐩstdslicesᐩConcat[ᐩE any](xs ...[]ᐩE) []ᐩE {
	var out []ᐩE
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

// ᐩstdslicesᐩConcat2 is the two-operand Concat pass std-generics writes
// for slices.Concat(a, b, ...): the interpreter cannot infer a type
// parameter from variadic arguments.
func ᐩstdslicesᐩConcat2[ᐩE any](a, b []ᐩE) []ᐩE {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]ᐩE, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

func ᐩstdslicesᐩRepeat[ᐩE any](x []ᐩE, n int) []ᐩE {
	if n < 0 {
		panic("cannot be negative")
	}
	out := make([]ᐩE, 0, len(x)*n)
	for i := 0; i < n; i++ {
		out = append(out, x...)
	}
	return out
}

func ᐩstdslicesᐩBinarySearch[ᐩE ᐩordered](x []ᐩE, t ᐩE) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(x) && x[lo] == t
}

func ᐩstdslicesᐩBinarySearchFunc[ᐩE, ᐩT any](x []ᐩE, target ᐩT, cmp func(ᐩE, ᐩT) int) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(x[m], target) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(x) && cmp(x[lo], target) == 0
}

func ᐩstdslicesᐩAll[ᐩE any](x []ᐩE) func(yield func(int, ᐩE) bool) {
	return func(yield func(int, ᐩE) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

func ᐩstdslicesᐩValues[ᐩE any](x []ᐩE) func(yield func(ᐩE) bool) {
	return func(yield func(ᐩE) bool) {
		for _, v := range x {
			if !yield(v) {
				return
			}
		}
	}
}

func ᐩstdslicesᐩCollect[ᐩE any](seq func(yield func(ᐩE) bool)) []ᐩE {
	var out []ᐩE
	seq(func(v ᐩE) bool { out = append(out, v); return true })
	return out
}

func ᐩstdslicesᐩSorted[ᐩE ᐩordered](seq func(yield func(ᐩE) bool)) []ᐩE {
	var out []ᐩE
	seq(func(v ᐩE) bool { out = append(out, v); return true })
	ᐩrt.SortSlice(out, func(i, j int) bool { return out[i] < out[j] }, false)
	return out
}

func ᐩstdslicesᐩSortedStableFunc[ᐩE any](seq func(yield func(ᐩE) bool), cmp func(a, b ᐩE) int) []ᐩE {
	var out []ᐩE
	seq(func(v ᐩE) bool { out = append(out, v); return true })
	ᐩrt.SortSlice(out, func(i, j int) bool { return cmp(out[i], out[j]) < 0 }, true)
	return out
}

func ᐩstdslicesᐩAppendSeq[ᐩE any](x []ᐩE, seq func(yield func(ᐩE) bool)) []ᐩE {
	seq(func(v ᐩE) bool { x = append(x, v); return true })
	return x
}

func ᐩstdslicesᐩSortedFunc[ᐩE any](seq func(yield func(ᐩE) bool), cmp func(a, b ᐩE) int) []ᐩE {
	var out []ᐩE
	seq(func(v ᐩE) bool { out = append(out, v); return true })
	ᐩrt.SortSlice(out, func(i, j int) bool { return cmp(out[i], out[j]) < 0 }, false)
	return out
}
