package session

import (
	"strings"
	"testing"
)

// TestRecursionLimitOnEveryCallPath: runaway recursion through each kind
// of call — a closure in a variable (the h: it got no reply for
// minutes after calls 10 … 4,999 deep), a declared function, a method
// value, a function passed as a value, a func-valued field, mutual
// recursion, and inside a goroutine — ends with an error that names the
// function and the depth, after the same calls just under the limit ran
// first; the session keeps its variables. (docs/benchmarks.md has how
// long it takes; rt/depth.go why it is linear now.)
func TestRecursionLimitOnEveryCallPath(t *testing.T) {
	if testing.Short() {
		t.Skip("recursion 5,000 calls deep")
	}
	for _, tc := range []struct {
		name, setup, call string
		under, over       string   // arguments that recurse just under and just over 5,000 calls (in a goroutine, the calls in flight on the cell's goroutine count too)
		want              []string // each must be in the error (or, for a goroutine, stderr)
		goroutine         bool
	}{
		{name: "closure in a variable",
			setup: "var h func(int) int\nh = func(n int) int { if n == 0 { return 0 }; return h(n-1) + 1 }",
			call:  "h", under: "4999", over: "5001", want: []string{"in h (the function literal at cell[1]:2:21)", "base case of h"}},
		{name: "declared function",
			setup: "func g(n int) int { if n == 0 { return 0 }; return g(n-1) + 1 }",
			call:  "g", under: "4999", over: "5001", want: []string{"in g (declared in cell[1])"}},
		{name: "method value",
			setup: "type T struct{ k int }\nfunc (t T) m(n int) int { if n == 0 { return t.k }; return t.m(n-1) + 1 }\nf := T{}.m",
			call:  "f", under: "4999", over: "5001", want: []string{"in m", "declared in cell[1]"}},
		{name: "function passed as a value",
			setup: "apply := func(f func(int) int, n int) int { return f(n) }\nvar k func(int) int\nk = func(n int) int { if n == 0 { return 0 }; return apply(k, n-1) + 1 }",
			call:  "k", under: "2499", over: "2501", want: []string{"(the function literal at cell[1]:"}},
		{name: "func-valued field",
			setup: "type S struct{ f func(int) int }\nvar s S\ns.f = func(n int) int { if n == 0 { return 0 }; return s.f(n-1) + 1 }\nsf := func(n int) int { return s.f(n) }",
			call:  "sf", under: "4998", over: "5001", want: []string{"in s.f (the function literal at cell[1]:3:23)"}},
		{name: "mutual recursion",
			setup: "func a(n int) int { if n == 0 { return 0 }; return b(n-1) + 1 }\nfunc b(n int) int { return a(n) }",
			call:  "a", under: "2499", over: "2501", want: []string{"declared in cell[1]"}},
		{name: "goroutine",
			setup: "var q func(int) int\nq = func(n int) int { if n == 0 { return 0 }; return q(n-1) + 1 }\n" +
				"inGo := func(n int) int { r := make(chan int, 1); go func() { defer close(r); r <- q(n) }(); return <-r }",
			call: "inGo", under: "4900", over: "5001", want: []string{"runaway recursion in a goroutine: call depth passed 5000 interpreted calls in q (the function literal at cell[1]:2:21)"},
			goroutine: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res, rec := exec(t, s, 1, tc.setup+"\nx := 41"); res.Err != nil {
				t.Fatalf("setup: %v %s", res.Err, rec.Text("stderr"))
			}
			for _, n := range []string{"10", "1000", tc.under} { // what ran before
				if res, _ := exec(t, s, 2, tc.call+"("+n+")"); res.Err != nil || res.Value.Bundle["text/plain"] != n {
					t.Fatalf("%s(%s): %v %v", tc.call, n, res.Err, res.Value)
				}
			}
			res, rec := exec(t, s, 3, tc.call+"("+tc.over+")")
			got := rec.Text("stderr")
			if tc.goroutine {
				if res.Err != nil {
					t.Fatalf("the goroutine's error ended the cell: %v", res.Err)
				}
			} else {
				if res.Err == nil {
					t.Fatalf("%s(%s) succeeded", tc.call, tc.over)
				}
				got = res.Err.Value
				if !strings.Contains(got, "call depth passed 5000 interpreted calls in ") {
					t.Errorf("the error does not give the depth and a function: %s", got)
				}
			}
			t.Logf("%s(%s): %s", tc.call, tc.over, got)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			if res, _ := exec(t, s, 4, "x + 1"); res.Err != nil || res.Value.Bundle["text/plain"] != "42" {
				t.Fatalf("after the recursion: %v %v", res.Err, res.Value)
			}
		})
	}
}
