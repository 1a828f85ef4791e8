package session

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// The generic functions of slices, maps, cmp and math/rand/v2 that cells
// call (rewrite.StdGeneric), as interpreted Go written for tick: the
// interpreter's symbol tables cannot hold generic functions. The rewrite
// pass std-generics points `slices.Sort` at `ᐩstdslicesᐩSort`. Sorting
// calls the standard library's sort.Slice (native) with an interpreted
// comparison. Iterators (iter.Seq) are plain functions taking a yield
// callback, since the interpreter cannot range over a function.
const stdGenericsSource = `
func ᐩstdslicesᐩSort[E ᐩordered](x []E) { ᐩrt.SortSlice(x, func(i, j int) bool { return x[i] < x[j] }, false) }
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
func ᐩstdmapsᐩKeys[K comparable, V any](m map[K]V) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
func ᐩstdmapsᐩValues[K comparable, V any](m map[K]V) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}
func ᐩstdmapsᐩAll[K comparable, V any](m map[K]V) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}
func ᐩstdmapsᐩCollect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	out := map[K]V{}
	seq(func(k K, v V) bool { out[k] = v; return true })
	return out
}
func ᐩstdmapsᐩClone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return m
	}
	out := map[K]V{}
	for k, v := range m {
		out[k] = v
	}
	return out
}
func ᐩstdmapsᐩCopy[K comparable, V any](dst, src map[K]V) {
	for k, v := range src {
		dst[k] = v
	}
}
func ᐩstdmapsᐩDeleteFunc[K comparable, V any](m map[K]V, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}
func ᐩstdmapsᐩEqual[K, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
func ᐩstdmapsᐩEqualFunc[K comparable, V1, V2 any](a map[K]V1, b map[K]V2, eq func(V1, V2) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !eq(v, w) {
			return false
		}
	}
	return true
}
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
func ᐩstdsyncᐩOnceValue[T any](f func() T) func() T {
	g := ᐩstdsyncᐩOnceValues(func() (T, bool) { return f(), true })
	return func() T {
		v, _ := g()
		return v
	}
}
func ᐩstdsyncᐩOnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		done  bool
		v1    T1
		v2    T2
		p     any
		panicked bool
		lock  = make(chan struct{}, 1)
	)
	return func() (T1, T2) {
		lock <- struct{}{}
		if !done {
			done = true
			func() {
				panicked = true
				defer func() {
					if panicked {
						p = recover()
					}
				}()
				v1, v2 = f()
				panicked = false
			}()
		}
		<-lock
		if panicked {
			panic(p)
		}
		return v1, v2
	}
}
func ᐩstdmathᐩrandᐩv2ᐩN[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](n T) T {
	r := n
	ᐩrt.RandN(&r)
	return r
}
`

// stdGenericsSymbols returns the native helpers of stdGenericsSource, and
// an empty package iter (its types are rewritten as function types).
func stdGenericsSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		rtPath + "/rt": {
			"SortSlice": reflect.ValueOf(func(x any, less func(i, j int) bool, stable bool) {
				if stable {
					sort.SliceStable(x, less)
				} else {
					sort.Slice(x, less)
				}
			}),
			"RandN": reflect.ValueOf(randN),
		},
		"iter/iter": {},
	}
}

// the prelude's names follow rewrite.StdGenericName.
var _ = strings.Contains(stdGenericsSource, rewrite.StdGenericName("slices", "Sort"))

// importsCopy returns the package names successful cells imported.
func (s *Session) importsCopy() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]string, len(s.imports))
	for k, v := range s.imports {
		m[k] = v
	}
	return m
}

// randN sets the integer *p points to to a random number in [0, *p), as
// math/rand/v2.N does.
func randN(p any) {
	v := reflect.ValueOf(p).Elem()
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() <= 0 {
			panic("invalid argument to N")
		}
		v.SetInt(rand.Int64N(v.Int()))
	default:
		if v.Uint() == 0 {
			panic("invalid argument to N")
		}
		v.SetUint(rand.Uint64N(v.Uint()))
	}
}
