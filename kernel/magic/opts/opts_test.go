package opts

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var specs = []Spec{
	{Names: []string{"-n", "--loops"}, Kind: Int, Min: 1},
	{Names: []string{"-q"}, Kind: Bool},
	{Names: []string{"--check"}, Kind: String},
	{Names: []string{"--plot"}, Kind: String, Choices: []string{"hist", "box", "none"}, Multi: true},
	{Names: []string{"-T"}, Kind: Duration},
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		line, rest string
		check      func(*Options) bool
	}{
		{"x := f()", "x := f()", func(p *Options) bool { return !p.Has("-n") && p.Int("-n") == 0 }},
		{"-n 10 -q f(x)", "f(x)", func(p *Options) bool { return p.Int("-n") == 10 && p.Has("-q") }},
		{"-n10 f()", "f()", func(p *Options) bool { return p.Int("-n") == 10 }},
		{"--loops=3 -- -x", "-x", func(p *Options) bool { return p.Int("-n") == 3 }},
		{`--check 'y > 0' g()`, "g()", func(p *Options) bool { return p.Text("--check") == "y > 0" }},
		{`--check="a \"b\"" g()`, "g()", func(p *Options) bool { return p.Text("--check") == `a "b"` }},
		{`--check='s == "a"' g()`, "g()", func(p *Options) bool { return p.Text("--check") == `s == "a"` }},
		{`--check 's == "a"' g()`, "g()", func(p *Options) bool { return p.Text("--check") == `s == "a"` }},
		{"--plot hist,box h()", "h()", func(p *Options) bool { v, ok := p.Str("--plot"); return ok && v == "hist,box" }},
		{"-T 500ms f()", "f()", func(p *Options) bool { return p.Duration("-T") == 500*time.Millisecond }},
		{"-T 2 f()", "f()", func(p *Options) bool { return p.Duration("-T") == 2*time.Second }},
		{"-1 + x", "-1 + x", func(p *Options) bool { return !p.Has("-n") }}, // Go code, not an option
	} {
		p, err := Parse("timeit", "%timeit [-n N] STMT", c.line, specs)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.line, err)
			continue
		}
		if p.Rest != c.rest || !c.check(p) {
			t.Errorf("Parse(%q) = %+v, rest %q; want rest %q and the values the case checks", c.line, *p, p.Rest, c.rest)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ line, option, reason string }{
		{"-x f()", "-x", "unknown option"},
		{"-n 0 f()", "-n", "too small"},
		{"-n ten f()", "-n", "not a whole number"},
		{"-n", "-n", "needs a value"},
		{"-q -q f()", "-q", "given twice"},
		{"-q=1 f()", "-q=1", "without '='"},
		{"--plot pie f()", "--plot", `"pie" is not one of hist, box, none`},
		{"-T soon f()", "-T", "not a duration"},
		{"--check 'x f()", "--check", "unterminated ' quote"},
	} {
		_, err := Parse("timeit", "%timeit [-n N] STMT", c.line, specs)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("Parse(%q) = %v, want a *UsageError", c.line, err)
			continue
		}
		if ue.Option != c.option || !strings.Contains(ue.Reason, c.reason) || !strings.Contains(ue.Error(), "usage: %timeit [-n N] STMT") {
			t.Errorf("Parse(%q): option %q, error %q; want option %q and %q", c.line, ue.Option, ue.Error(), c.option, c.reason)
		}
	}
}
