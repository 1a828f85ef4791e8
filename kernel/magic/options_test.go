package magic

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/timing"
)

func TestParseTimeit(t *testing.T) {
	cases := []struct {
		name, args, body string
		cell             bool
		want             func(a *timeitArgs)
	}{
		{"bare statement", "x := 1", "", false, func(a *timeitArgs) { a.Stmt = "x := 1" }},
		{"loops and repeats", "-n 10 -r 5 x := 1", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Loops, a.Opts.Repeats = "x := 1", 10, 5
		}},
		{"attached short value", "-n10 -r3 y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Loops, a.Opts.Repeats = "y = f()", 10, 3
		}},
		{"long options with =", "--sync=iter --gc=off -T 500ms y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Sync, a.Opts.GC, a.Opts.Budget = "y = f()", timing.SyncIter, timing.GCOff, 500*time.Millisecond
		}},
		{"long option with separate value", "--sync none y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Sync = "y = f()", timing.SyncNone
		}},
		{"bare seconds budget", "-T 1.5 y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Budget = "y = f()", 1500*time.Millisecond
		}},
		{"warm-up zero means none", "-w 0 y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Warmup = "y = f()", timing.NoWarmup
		}},
		{"single-quoted check", "--check 'y.Item() == 3' y = f(x)", "", false, func(a *timeitArgs) {
			a.Stmt, a.Check = "y = f(x)", "y.Item() == 3"
		}},
		{"double-quoted with escapes", `--check "s == \"a b\"" s = g()`, "", false, func(a *timeitArgs) {
			a.Stmt, a.Check = "s = g()", `s == "a b"`
		}},
		{"quoted value after =", `--vs='y = slow(x)' y = fast(x)`, "", false, func(a *timeitArgs) {
			a.Stmt, a.Vs = "y = fast(x)", "y = slow(x)"
		}},
		{"flags", "-o -q -v best --svg -p 4 y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Object, a.Quiet, a.Var, a.SVG, a.Digits = "y = f()", true, true, "best", true, 4
		}},
		{"plot list", "--plot=ecdf,hist y = f()", "", false, func(a *timeitArgs) {
			a.Stmt, a.Plots = "y = f()", []string{"ecdf", "hist"}
		}},
		{"plot none", "--plot=none y = f()", "", false, func(a *timeitArgs) { a.Stmt, a.Plots = "y = f()", nil }},
		{"json", "--json y = f()", "", false, func(a *timeitArgs) { a.Stmt, a.JSON = "y = f()", true }},
		{"go code is never split", `-n 1 s := "-n 2 'x'" + fmt.Sprint('a')`, "", false, func(a *timeitArgs) {
			a.Stmt, a.Opts.Loops = `s := "-n 2 'x'" + fmt.Sprint('a')`, 1
		}},
		{"statement starting with minus after --", "-- -x", "", false, func(a *timeitArgs) { a.Stmt = "-x" }},
		{"negative literal is not an option", "-1 + x", "", false, func(a *timeitArgs) { a.Stmt = "-1 + x" }},
		{"cell: setup on the first line", "-n 3 buf := make([]int, 8)", "copy(buf, src)\nsum(buf)", true, func(a *timeitArgs) {
			a.Setup, a.Stmt, a.Opts.Loops = "buf := make([]int, 8)", "copy(buf, src)\nsum(buf)", 3
		}},
		{"cell: no setup", "", "x++", true, func(a *timeitArgs) { a.Stmt = "x++" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseTimeit(c.args, c.body, c.cell)
			if err != nil {
				t.Fatalf("parseTimeit(%q): %v", c.args, err)
			}
			want := &timeitArgs{Plots: []string{"hist", "trace"}}
			c.want(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parseTimeit(%q)\n got %+v\nwant %+v", c.args, got, want)
			}
		})
	}
}

func TestParseTimeitErrors(t *testing.T) {
	cases := []struct {
		name, args, body string
		cell             bool
		option, reason   string
	}{
		{"unknown short", "-z 3 x := 1", "", false, "-z", "unknown option"},
		{"unknown long", "--loops=3 x := 1", "", false, "--loops", "unknown option"},
		{"not a number", "-n ten x := 1", "", false, "-n", "not a whole number"},
		{"zero loops", "-n 0 x := 1", "", false, "-n", "too small"},
		{"missing value", "-n", "", false, "-n", "needs a value"},
		{"bad sync", "--sync=always x := 1", "", false, "--sync", "not one of"},
		{"bad gc", "--gc maybe x := 1", "", false, "--gc", "not one of"},
		{"bad plot", "--plot=pie x := 1", "", false, "--plot", "not one of"},
		{"none mixed", "--plot=none,hist x := 1", "", false, "--plot", "cannot be combined"},
		{"bad duration", "-T soon x := 1", "", false, "-T", "not a duration"},
		{"negative duration", "-T -1s x := 1", "", false, "-T", "must be positive"},
		{"unterminated quote", "--check 'x == 1 x := 1", "", false, "--check", "unterminated"},
		{"bool with value", "--svg=yes x := 1", "", false, "--svg", "takes no value"},
		{"short with =", "-n=3 x := 1", "", false, "-n=3", "without '='"},
		{"twice", "-n 1 -n 2 x := 1", "", false, "-n", "given twice"},
		{"bad var", "-v 2fast x := 1", "", false, "-v", "not a Go identifier"},
		{"quiet and json", "-q --json x := 1", "", false, "-q", "choose one"},
		{"digits", "-p 40 x := 1", "", false, "-p", "at most 15"},
		{"nothing to time", "-n 3", "", false, "STATEMENT", "nothing to time"},
		{"empty cell", "-n 3", "  \n", true, "body", "nothing to time"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseTimeit(c.args, c.body, c.cell)
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("parseTimeit(%q) = %v, want a *UsageError", c.args, err)
			}
			if ue.Option != c.option || !strings.Contains(ue.Reason, c.reason) {
				t.Errorf("got option %q reason %q, want option %q reason containing %q", ue.Option, ue.Reason, c.option, c.reason)
			}
			msg := err.Error()
			if !strings.Contains(msg, "usage: %") || !strings.Contains(msg, c.option) {
				t.Errorf("message does not name the option and show the usage line:\n%s", msg)
			}
		})
	}
}

func TestHelpSections(t *testing.T) {
	for _, m := range Magics() {
		if m.Summary == "" || m.Help == "" {
			t.Errorf("%%%s: empty summary or help", m.Name)
		}
		if !strings.HasPrefix(m.Help, "Usage:") {
			t.Errorf("%%%s: help does not start with its usage", m.Name)
		}
	}
	// Every %timeit option is documented with an example line.
	h := help("timeit")
	for _, s := range timeitSpecs {
		for _, n := range s.Names {
			if !strings.Contains(h, "  "+n) || !strings.Contains(h, "%timeit "+n) {
				t.Errorf("%%timeit help does not document %s with an example", n)
			}
		}
	}
}

// docs/magics.md documents every option of every magic in a table row.
func TestDocsListEveryOption(t *testing.T) {
	doc, err := os.ReadFile("../../docs/magics.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, specs := range map[string][]opts.Spec{"timeit": timeitSpecs, "time": timeSpecs, "compare": compareSpecs} {
		for _, s := range specs {
			for _, n := range s.Names {
				if !strings.Contains(string(doc), "| `"+n) || !strings.Contains(help(name), "  "+n) {
					t.Errorf("%%%s %s is not documented in docs/magics.md and help.md", name, n)
				}
			}
		}
	}
}

// A statement is named by its first line, with " …" when more follow.
func TestLabel(t *testing.T) {
	for _, tc := range []struct{ stmt, want string }{
		{"y = step.Call(x)", "y = step.Call(x)"},
		{"s := 0\nfor _, x := range xs {\n\ts += x\n}", "s := 0 …"},
		{"\n\n  a  :=  1 \n", "a := 1"},
		{"x := tensor.Arange(1024).Mul(2).Add(1).Realize()\ny := x", "x := tensor.Arange(1024).Mul(2).Add(1).…"},
		{"", ""},
	} {
		if got := label(tc.stmt); got != tc.want {
			t.Errorf("label(%q) = %q, want %q", tc.stmt, got, tc.want)
		}
	}
}
