package stdgo

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// declared returns the functions Source declares, by name.
func declared(t *testing.T) map[string]*ast.FuncDecl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+Source(), 0)
	if err != nil {
		t.Fatalf("Source does not parse: %v", err)
	}
	out := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			out[fd.Name.Name] = fd
		}
	}
	return out
}

// TestShimsMatchTheRewrite: every function pass std-generics points a
// call at is declared here, and every shim is one of them (or Or2 and
// Concat2, which the pass writes itself), under rewrite.StdGenericName.
func TestShimsMatchTheRewrite(t *testing.T) {
	decls := declared(t)
	want := map[string]bool{rewrite.StdGenericName("cmp", "Or2"): true, rewrite.StdGenericName("slices", "Concat2"): true}
	for p, fns := range rewrite.StdGenerics() {
		for _, fn := range fns {
			name := rewrite.StdGenericName(p, fn)
			want[name] = true
			if decls[name] == nil {
				t.Errorf("%s.%s: the rewrite calls %s, which no shim declares", p, fn, name)
			}
		}
	}
	for name := range decls {
		if strings.HasPrefix(name, "ᐩstd") && !want[name] {
			t.Errorf("shim %s is not in rewrite.StdGenerics: no cell can call it", name)
		}
	}
	for _, b := range []string{"min", "max"} {
		if decls[b] == nil {
			t.Errorf("the builtin %s is not declared", b)
		}
	}
}

// TestSourceInterprets: yaegi accepts the shims as the session loads
// them (ᐩrt bound to Helpers), and a call through ᐩrt works.
func TestSourceInterprets(t *testing.T) {
	ip := interp.New(interp.Options{})
	const path = "tick/stdgo/rt"
	if err := ip.Use(interp.Exports{path + "/rt": Helpers()}); err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(`import ᐩrt "` + path + `"`); err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(Source()); err != nil {
		t.Fatalf("the interpreter rejects the shims: %v", err)
	}
	if _, err := ip.Eval(`x := []string{"b", "c", "a"}; ᐩstdslicesᐩSort(x)`); err != nil {
		t.Fatal(err)
	}
	v, err := ip.Eval("x")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface().([]string); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("interpreted ᐩstdslicesᐩSort: %v", got)
	}
}

// TestOrderedNamedTypes: the named ordered types of the tables are
// exported into ᐩrt and listed in ᐩordered, so the interpreted shims take
// a []time.Duration as Go's slices.Sort does; struct types, values and
// interface wrappers are not listed.
func TestOrderedNamedTypes(t *testing.T) {
	table := map[string]map[string]reflect.Value{"time/time": {
		"Duration":  reflect.ValueOf((*time.Duration)(nil)),
		"Month":     reflect.ValueOf((*time.Month)(nil)),
		"Time":      reflect.ValueOf((*time.Time)(nil)),
		"Second":    reflect.ValueOf(time.Second),
		"_Stringer": reflect.ValueOf((*time.Weekday)(nil)),
	}}
	ordered := Ordered(table, table)
	names := slices.Sorted(maps.Keys(ordered))
	if want := []string{"OrderedᐩtimeᐩDuration", "OrderedᐩtimeᐩMonth"}; !slices.Equal(names, want) {
		t.Fatalf("Ordered: %v, want %v", names, want)
	}
	ip := interp.New(interp.Options{})
	if err := ip.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	helpers := Helpers()
	for n, v := range ordered {
		helpers[n] = v
	}
	const path = "tick/stdgo/rt"
	if err := ip.Use(interp.Exports{path + "/rt": helpers}); err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(`import ᐩrt "` + path + `"`); err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(Source(names...)); err != nil {
		t.Fatalf("the interpreter rejects the shims: %v", err)
	}
	for _, src := range []string{`import "time"`, `ds := []time.Duration{3, 1, 2}; ᐩstdslicesᐩSort(ds)`} {
		if _, err := ip.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	v, err := ip.Eval("ds")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface().([]time.Duration); !slices.Equal(got, []time.Duration{1, 2, 3}) {
		t.Errorf("interpreted ᐩstdslicesᐩSort of []time.Duration: %v", got)
	}
}

func collectSeq2[K comparable, V any](m map[K]V) func(func(K, V) bool) { return maps.All(m) }

func seq[E any](s []E) func(func(E) bool) { return slices.Values(s) }

func collect2[K comparable, V any](it func(func(K, V) bool)) map[K]V {
	out := map[K]V{}
	it(func(k K, v V) bool { out[k] = v; return true })
	return out
}

func sorted[E cmp.Ordered](it func(func(E) bool)) []E { return slices.Sorted(it) }

// TestShimsAreTheStandardLibrary compares each shim, compiled, with the
// function of the standard library it stands for.
func TestShimsAreTheStandardLibrary(t *testing.T) {
	x := func() []int { return []int{3, 1, 4, 1, 5, 9, 2, 6} }
	byAbs := func(a, b int) int { return cmp.Compare(a%3, b%3) }
	even := func(v int) bool { return v%2 == 0 }
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	cases := []struct {
		name      string
		got, want any
	}{
		{"min", min(3, 1, 2), 1},
		{"max", max(3.5, 7), 7.0},
		{"Max, Min NaN", fmt.Sprint(ᐩstdslicesᐩMax([]float64{1, math.NaN(), 2}), ᐩstdslicesᐩMin([]float64{1, math.NaN()})), fmt.Sprint(slices.Max([]float64{1, math.NaN(), 2}), slices.Min([]float64{1, math.NaN()}))},
		{"max NaN", fmt.Sprint(max(1.5, math.NaN()), max(math.NaN(), 1.5), min(2, math.NaN(), 1)), fmt.Sprint(math.NaN(), math.NaN(), math.NaN())},
		{"Sort", func() []int { s := x(); ᐩstdslicesᐩSort(s); return s }(), func() []int { s := x(); slices.Sort(s); return s }()},
		{"SortFunc", func() []int { s := x(); ᐩstdslicesᐩSortFunc(s, byAbs); return ᐩstdslicesᐩCollect(seq(s)) }(), nil},
		{"SortStableFunc", func() []int { s := x(); ᐩstdslicesᐩSortStableFunc(s, byAbs); return s }(), func() []int { s := x(); slices.SortStableFunc(s, byAbs); return s }()},
		{"IsSorted", []bool{ᐩstdslicesᐩIsSorted(x()), ᐩstdslicesᐩIsSorted([]int{1, 2})}, []bool{false, true}},
		{"IsSortedFunc", ᐩstdslicesᐩIsSortedFunc(x(), byAbs), slices.IsSortedFunc(x(), byAbs)},
		{"Max", ᐩstdslicesᐩMax(x()), slices.Max(x())},
		{"Min", ᐩstdslicesᐩMin(x()), slices.Min(x())},
		{"MaxFunc", ᐩstdslicesᐩMaxFunc(x(), byAbs), slices.MaxFunc(x(), byAbs)},
		{"MinFunc", ᐩstdslicesᐩMinFunc(x(), byAbs), slices.MinFunc(x(), byAbs)},
		{"Reverse", func() []int { s := x(); ᐩstdslicesᐩReverse(s); return s }(), func() []int { s := x(); slices.Reverse(s); return s }()},
		{"Clone", ᐩstdslicesᐩClone(x()), slices.Clone(x())},
		{"Clip", cap(ᐩstdslicesᐩClip(make([]int, 2, 9))), 2},
		{"Grow", cap(ᐩstdslicesᐩGrow(x(), 10)) >= 18, true},
		{"Compact", ᐩstdslicesᐩCompact([]int{1, 1, 2, 2, 1}), slices.Compact([]int{1, 1, 2, 2, 1})},
		{"CompactFunc", ᐩstdslicesᐩCompactFunc(x(), func(a, b int) bool { return a%2 == b%2 }), slices.CompactFunc(x(), func(a, b int) bool { return a%2 == b%2 })},
		{"Index", ᐩstdslicesᐩIndex(x(), 5), slices.Index(x(), 5)},
		{"IndexFunc", ᐩstdslicesᐩIndexFunc(x(), even), slices.IndexFunc(x(), even)},
		{"Contains", []bool{ᐩstdslicesᐩContains(x(), 9), ᐩstdslicesᐩContains(x(), 7)}, []bool{true, false}},
		{"ContainsFunc", ᐩstdslicesᐩContainsFunc(x(), even), slices.ContainsFunc(x(), even)},
		{"Equal", []bool{ᐩstdslicesᐩEqual(x(), x()), ᐩstdslicesᐩEqual(x(), x()[1:])}, []bool{true, false}},
		{"EqualFunc", ᐩstdslicesᐩEqualFunc(x(), x(), func(a, b int) bool { return a == b }), true},
		{"BinarySearchFunc", fmt.Sprint(ᐩstdslicesᐩBinarySearchFunc([]int{1, 3, 5}, 3, cmp.Compare[int])), fmt.Sprint(slices.BinarySearchFunc([]int{1, 3, 5}, 3, cmp.Compare[int]))},
		{"Grow", cap(ᐩstdslicesᐩGrow([]int{0, 42, -10, 8}, 2)), cap(slices.Grow([]int{0, 42, -10, 8}, 2))},
		{"Compare", []int{ᐩstdslicesᐩCompare(x(), x()[:3]), ᐩstdslicesᐩCompare([]int{1}, []int{2})}, []int{slices.Compare(x(), x()[:3]), -1}},
		{"Insert", ᐩstdslicesᐩInsert(x(), 2, 7, 8), slices.Insert(x(), 2, 7, 8)},
		{"Delete", ᐩstdslicesᐩDelete(x(), 1, 3), slices.Delete(x(), 1, 3)},
		{"DeleteFunc", ᐩstdslicesᐩDeleteFunc(x(), even), slices.DeleteFunc(x(), even)},
		{"Replace", ᐩstdslicesᐩReplace(x(), 1, 3, 0), slices.Replace(x(), 1, 3, 0)},
		{"Concat", ᐩstdslicesᐩConcat(x(), []int{7}), slices.Concat(x(), []int{7})},
		{"Repeat", ᐩstdslicesᐩRepeat([]int{1, 2}, 3), slices.Repeat([]int{1, 2}, 3)},
		{"BinarySearch", func() []any { i, ok := ᐩstdslicesᐩBinarySearch([]int{1, 3, 5}, 4); return []any{i, ok} }(), []any{2, false}},
		{"All", collect2(ᐩstdslicesᐩAll([]string{"a", "b"})), map[int]string{0: "a", 1: "b"}},
		{"Values", ᐩstdslicesᐩCollect(ᐩstdslicesᐩValues(x())), x()},
		{"Sorted", ᐩstdslicesᐩSorted(seq(x())), sorted(seq(x()))},
		{"SortedFunc", ᐩstdslicesᐩSortedFunc(seq(x()), byAbs), slices.SortedFunc(seq(x()), byAbs)},
		{"maps.Keys", ᐩstdslicesᐩSorted(ᐩstdmapsᐩKeys(m)), slices.Sorted(maps.Keys(m))},
		{"maps.Values", ᐩstdslicesᐩSorted(ᐩstdmapsᐩValues(m)), slices.Sorted(maps.Values(m))},
		{"maps.All", collect2(ᐩstdmapsᐩAll(m)), m},
		{"maps.Collect", ᐩstdmapsᐩCollect(ᐩstdmapsᐩAll(m)), maps.Collect(maps.All(m))},
		{"maps.Clone", ᐩstdmapsᐩClone(m), maps.Clone(m)},
		{"maps.Copy", func() map[string]int { d := map[string]int{"z": 0}; ᐩstdmapsᐩCopy(d, m); return d }(), map[string]int{"z": 0, "a": 1, "b": 2, "c": 3}},
		{"maps.DeleteFunc", func() map[string]int {
			d := maps.Clone(m)
			ᐩstdmapsᐩDeleteFunc(d, func(_ string, v int) bool { return v > 1 })
			return d
		}(), map[string]int{"a": 1}},
		{"maps.Equal", []bool{ᐩstdmapsᐩEqual(m, maps.Clone(m)), ᐩstdmapsᐩEqual(m, map[string]int{})}, []bool{true, false}},
		{"maps.EqualFunc", ᐩstdmapsᐩEqualFunc(m, m, func(a, b int) bool { return a == b }), true},
		{"cmp.Compare", []int{ᐩstdcmpᐩCompare(1, 2), ᐩstdcmpᐩCompare("b", "a"), ᐩstdcmpᐩCompare(2.0, 2.0)}, []int{-1, 1, 0}},
		{"cmp.Less", ᐩstdcmpᐩLess(1, 2), cmp.Less(1, 2)},
		{"SortedStableFunc", ᐩstdslicesᐩSortedStableFunc(seq(x()), byAbs), slices.SortedStableFunc(slices.Values(x()), byAbs)},
		{"AppendSeq", ᐩstdslicesᐩAppendSeq([]int{7}, seq(x())), slices.AppendSeq([]int{7}, slices.Values(x()))},
		{"maps.Insert", func() map[int]int {
			m := map[int]int{1: 1}
			ᐩstdmapsᐩInsert(m, collectSeq2(map[int]int{2: 4}))
			return m
		}(), map[int]int{1: 1, 2: 4}},
		{"Concat2", ᐩstdslicesᐩConcat2(x(), x()), slices.Concat(x(), x())},
		{"Concat2 empty", ᐩstdslicesᐩConcat2([]int{}, nil) == nil, slices.Concat([]int{}, nil) == nil},
		{"cmp.Compare NaN", []int{ᐩstdcmpᐩCompare(math.NaN(), 1), ᐩstdcmpᐩCompare(1, math.NaN()), ᐩstdcmpᐩCompare(math.NaN(), math.NaN())},
			[]int{cmp.Compare(math.NaN(), 1), cmp.Compare(1, math.NaN()), cmp.Compare(math.NaN(), math.NaN())}},
		{"cmp.Less NaN", []bool{ᐩstdcmpᐩLess(math.NaN(), 1), ᐩstdcmpᐩLess(1, math.NaN())}, []bool{cmp.Less(math.NaN(), 1), cmp.Less(1, math.NaN())}},
		{"cmp.Or", ᐩstdcmpᐩOr("", "x", "y"), cmp.Or("", "x", "y")},
		{"cmp.Or2", ᐩstdcmpᐩOr2(0, 5), cmp.Or(0, 5)},
		{"sync.OnceValue", func() []int {
			n := 0
			f := ᐩstdsyncᐩOnceValue(func() int { n++; return n })
			return []int{f(), f(), n}
		}(), func() []int { n := 0; f := sync.OnceValue(func() int { n++; return n }); return []int{f(), f(), n} }()},
		{"sync.OnceValues", func() []any {
			f := ᐩstdsyncᐩOnceValues(func() (int, string) { return 1, "a" })
			a, b := f()
			return []any{a, b}
		}(), []any{1, "a"}},
		{"rand.N", func() bool {
			for range 100 {
				if v := ᐩstdmathᐩrandᐩv2ᐩN(uint8(7)); v >= 7 {
					return false
				}
			}
			return true
		}(), true},
	}
	for _, c := range cases {
		if c.want == nil { // SortFunc: sorted by the comparison
			if s := c.got.([]int); !sort.SliceIsSorted(s, func(i, j int) bool { return byAbs(s[i], s[j]) < 0 }) {
				t.Errorf("%s: %v is not sorted", c.name, s)
			}
			continue
		}
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: shim %v, standard library %v", c.name, c.got, c.want)
		}
	}
}

// TestOnceValuesRepanics: a panic in f panics again at every call, as
// sync.OnceValues does.
func TestOnceValuesRepanics(t *testing.T) {
	calls := 0
	f := ᐩstdsyncᐩOnceValues(func() (int, int) { calls++; panic("boom") })
	for range 2 {
		func() {
			defer func() {
				if r := recover(); r != "boom" {
					t.Errorf("recovered %v, want boom", r)
				}
			}()
			f()
		}()
	}
	if calls != 1 {
		t.Errorf("f ran %d times, want once", calls)
	}
}

func signedOf[T ᐩconstraintsᐩSigned](x T) T      { return -x }
func unsignedOf[T ᐩconstraintsᐩUnsigned](x T) T  { return x + 1 }
func integerOf[T ᐩconstraintsᐩInteger](x T) T    { return x % 3 }
func floatOf[T ᐩconstraintsᐩFloat](x T) T        { return x / 2 }
func complexOf[T ᐩconstraintsᐩComplex](x T) T    { return x * x }
func orderedOf[T ᐩconstraintsᐩOrdered](a, b T) T { return max(a, b) }

// TestConstraints: the constraints of golang.org/x/exp/constraints take
// the types x/exp's do (compiled here, so Go checks the type sets).
func TestConstraints(t *testing.T) {
	type celsius float64
	got := fmt.Sprint(signedOf(int8(3)), unsignedOf(uintptr(1)), integerOf(uint16(7)), floatOf(celsius(3)), complexOf(2i), orderedOf("a", "b"))
	if want := "-3 2 1 1.5 (-4+0i)b"; got != want { // Sprint puts no space before a string
		t.Errorf("got %s, want %s", got, want)
	}
}
