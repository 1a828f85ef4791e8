package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestMagicSessionAPI(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "total := 0\nfunc work(k int) int { return k * 2 }")
	loop, err := s.CompileLoop("k := 3", "total += work(k)")
	if err != nil {
		t.Fatal(err)
	}
	if err := loop(5); err != nil {
		t.Fatal(err)
	}
	v, err := s.Eval("total")
	if err != nil || v.Interface() != 30 {
		t.Fatalf("Eval(total) = %v, %v; want 30", v, err)
	}
	boom, err := s.CompileLoop("", "var m map[int]int; m[1] = 1")
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if err := boom(1); !errors.As(err, &e) || e.Name != "Panic" {
		t.Errorf("panicking loop: %v", err)
	}
	// With no magic running, positions are the statement's own.
	if _, err := s.CompileLoop("k := 1", "undefinedName++"); err == nil || !strings.Contains(err.Error(), "cell[1]:1:1: undefined: undefinedName") {
		t.Errorf("CompileLoop of bad code: %v, want an error at cell[1]:1:1", err)
	}
	if err := s.SetVar("data", []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	res, _ := exec(t, s, 2, "data[2] * 2")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "6" {
		t.Errorf("SetVar: %v %v", res.Err, res.Value)
	}
	if err := s.Exec("total = 1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Eval("total + 1"); v.Interface() != 2 {
		t.Errorf("after Exec: total+1 = %v", v)
	}
	if _, err := s.Eval("x := 1"); err == nil {
		t.Error("Eval of a statement: no error")
	}
}

// A magic's expression (%timeit --check, --vs, %viz) calls tick's generic
// slices, maps and cmp as a cell does: `slices.IsSorted(s)` was an
// undefined selector there (issue 24).
func TestEvalSeesTheBridgedGenerics(t *testing.T) {
	s := newSession(t)
	if res, _ := exec(t, s, 1, "import (\"maps\"; \"slices\")\ns := []int{1, 2, 3}\nm := map[string]int{\"a\": 1}"); res.Err != nil {
		t.Fatal(res.Err)
	}
	for expr, want := range map[string]string{
		"slices.IsSorted(s)":                "true",
		"slices.Max(s) == 3":                "true",
		"len(slices.Collect(maps.Keys(m)))": "1",
	} {
		v, err := s.Eval(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if got := fmt.Sprint(v.Interface()); got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
}
