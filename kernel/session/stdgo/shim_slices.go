// Interpreted in every session (see stdgo.go): the generic functions of
// package slices; its iterators (All, Values, Collect, Sorted) are
// functions taking a yield callback.

package stdgo

func ᐩstdslicesᐩSort[E ᐩordered](x []E) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return x[i] < x[j] }, false)
}

func ᐩstdslicesᐩSortFunc[E any](x []E, cmp func(a, b E) int) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 }, false)
}

func ᐩstdslicesᐩSortStableFunc[E any](x []E, cmp func(a, b E) int) {
	ᐩrt.SortSlice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 }, true)
}

func ᐩstdslicesᐩIsSorted[E ᐩordered](x []E) bool {
	for i := 1; i < len(x); i++ {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩIsSortedFunc[E any](x []E, cmp func(a, b E) int) bool {
	for i := 1; i < len(x); i++ {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

func ᐩstdslicesᐩMax[E ᐩordered](x []E) E {
	if len(x) == 0 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

func ᐩstdslicesᐩMin[E ᐩordered](x []E) E {
	if len(x) == 0 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

func ᐩstdslicesᐩMaxFunc[E any](x []E, cmp func(a, b E) int) E {
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

func ᐩstdslicesᐩMinFunc[E any](x []E, cmp func(a, b E) int) E {
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

func ᐩstdslicesᐩReverse[E any](x []E) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

func ᐩstdslicesᐩClone[E any](x []E) []E {
	if x == nil {
		return x
	}
	out := make([]E, len(x))
	copy(out, x)
	return out
}

func ᐩstdslicesᐩClip[E any](x []E) []E { return x[:len(x):len(x)] }

func ᐩstdslicesᐩGrow[E any](x []E, n int) []E {
	if n < 0 {
		panic("cannot be negative")
	}
	if cap(x)-len(x) < n {
		y := make([]E, len(x), len(x)+n)
		copy(y, x)
		return y
	}
	return x
}

func ᐩstdslicesᐩCompact[E comparable](x []E) []E {
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

func ᐩstdslicesᐩCompactFunc[E any](x []E, eq func(a, b E) bool) []E {
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

func ᐩstdslicesᐩIndex[E comparable](x []E, v E) int {
	for i := range x {
		if x[i] == v {
			return i
		}
	}
	return -1
}

func ᐩstdslicesᐩIndexFunc[E any](x []E, f func(E) bool) int {
	for i := range x {
		if f(x[i]) {
			return i
		}
	}
	return -1
}

func ᐩstdslicesᐩContains[E comparable](x []E, v E) bool {
	for i := range x {
		if x[i] == v {
			return true
		}
	}
	return false
}

func ᐩstdslicesᐩContainsFunc[E any](x []E, f func(E) bool) bool {
	for i := range x {
		if f(x[i]) {
			return true
		}
	}
	return false
}

func ᐩstdslicesᐩEqual[E comparable](a, b []E) bool {
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

func ᐩstdslicesᐩEqualFunc[E, F any](a []E, b []F, eq func(E, F) bool) bool {
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

func ᐩstdslicesᐩCompare[E ᐩordered](a, b []E) int {
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

func ᐩstdslicesᐩInsert[E any](x []E, i int, vs ...E) []E {
	if i < 0 || i > len(x) {
		panic("slices.Insert: index out of range")
	}
	out := make([]E, 0, len(x)+len(vs))
	out = append(out, x[:i]...)
	out = append(out, vs...)
	return append(out, x[i:]...)
}

func ᐩstdslicesᐩDelete[E any](x []E, i, j int) []E {
	if i < 0 || j > len(x) || i > j {
		panic("slices.Delete: index out of range")
	}
	n := copy(x[i:], x[j:])
	var zero E
	for k := i + n; k < len(x); k++ {
		x[k] = zero
	}
	return x[:i+n]
}

func ᐩstdslicesᐩDeleteFunc[E any](x []E, del func(E) bool) []E {
	out := x[:0]
	for _, v := range x {
		if !del(v) {
			out = append(out, v)
		}
	}
	var zero E
	for k := len(out); k < len(x); k++ {
		x[k] = zero
	}
	return out
}

func ᐩstdslicesᐩReplace[E any](x []E, i, j int, vs ...E) []E {
	tail := append([]E{}, x[j:]...)
	return append(append(x[:i], vs...), tail...)
}

func ᐩstdslicesᐩConcat[E any](xs ...[]E) []E {
	var out []E
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

func ᐩstdslicesᐩRepeat[E any](x []E, n int) []E {
	if n < 0 {
		panic("cannot be negative")
	}
	out := make([]E, 0, len(x)*n)
	for i := 0; i < n; i++ {
		out = append(out, x...)
	}
	return out
}

func ᐩstdslicesᐩBinarySearch[E ᐩordered](x []E, t E) (int, bool) {
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

func ᐩstdslicesᐩAll[E any](x []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

func ᐩstdslicesᐩValues[E any](x []E) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range x {
			if !yield(v) {
				return
			}
		}
	}
}

func ᐩstdslicesᐩCollect[E any](seq func(yield func(E) bool)) []E {
	var out []E
	seq(func(v E) bool { out = append(out, v); return true })
	return out
}

func ᐩstdslicesᐩSorted[E ᐩordered](seq func(yield func(E) bool)) []E {
	var out []E
	seq(func(v E) bool { out = append(out, v); return true })
	ᐩrt.SortSlice(out, func(i, j int) bool { return out[i] < out[j] }, false)
	return out
}

func ᐩstdslicesᐩSortedFunc[E any](seq func(yield func(E) bool), cmp func(a, b E) int) []E {
	var out []E
	seq(func(v E) bool { out = append(out, v); return true })
	ᐩrt.SortSlice(out, func(i, j int) bool { return cmp(out[i], out[j]) < 0 }, false)
	return out
}
