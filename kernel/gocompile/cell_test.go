package gocompile

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestCellsUseEarlierCells(t *testing.T) {
	b := needPlugins(t)
	ctx := context.Background()
	first := `import "iter"

// Seq yields 0..n-1: range over a function iterator.
func Seq(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func Map[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

var Calls int

func Sum(n int) int {
	Calls++
	s := 0
	for v := range Seq(n) {
		s += v
	}
	return len(Map([]int{s}, func(x int) string { return "" })) * s
}
`
	p1, replaced, err := b.Cell(ctx, CellSource{N: 101, Line: 2, Col: 1, Body: first}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(replaced) != 0 || strings.Join(p1.Generic, ",") != "Map" {
		t.Fatalf("replaced %v, generic %v", replaced, p1.Generic)
	}
	sum := p1.Symbols[p1.Path+"/"+p1.Name]["Sum"]
	if got := sum.Call(valuesOf(10))[0].Int(); got != 45 {
		t.Fatalf("Sum(10) = %d, want 45", got)
	}
	second := "func Sum(n int) int { return 2 * ᐩnothing(n) }\n"
	second = strings.Replace(second, "ᐩnothing", "Seqsum", 1) + "func Seqsum(n int) int { s := 0; for v := range Seq(n) { s += v }; Calls += 10; return s }\n"
	p2, replaced, err := b.Cell(ctx, CellSource{N: 102, Line: 2, Col: 1, Body: second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(replaced, ",") != "Sum" {
		t.Fatalf("replaced %v, want Sum", replaced)
	}
	got := p2.Symbols[p2.Path+"/"+p2.Name]["Sum"].Call(valuesOf(10))[0].Int()
	calls := p1.Symbols[p1.Path+"/"+p1.Name]["Calls"].Int()
	if got != 90 || calls != 11 {
		t.Fatalf("second cell's Sum(10) = %d, Calls = %d; want 90 and 11 (one variable shared by both cells)", got, calls)
	}
}

func TestCellCompileErrorPositions(t *testing.T) {
	b := needPlugins(t)
	body := "import \"fmt\"\n\nfunc F() int {\n\treturn undefinedThing + 1\n}\n"
	_, _, err := b.Cell(context.Background(), CellSource{N: 7, Line: 2, Col: 1, Body: body}, nil)
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a BuildError", err)
	}
	for _, want := range []string{"cell[7]:5:9: undefined: undefinedThing", `cell[7]:2:8: "fmt" imported and not used`} {
		if !strings.Contains(be.Output, want) {
			t.Errorf("compile error %q lacks %q", be.Output, want)
		}
	}
}
