package magic

import (
	"strings"

	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/timing"
)

const (
	timeitUsage     = "%timeit [-n N] [-r R] [-w W] [-T DURATION] [--sync=sample|iter|none] [--clock=host|device] [--gc=collect|off|keep] [--check EXPR] [--plot=hist,trace,ecdf|none] [--svg] [-o] [-v NAME] [-q] [-p DIGITS] [--json] [--vs 'OTHER' [--vs-check EXPR]] STATEMENT"
	cellTimeitUsage = "%%timeit [options] [SETUP]   (options as for %timeit; the cell body is timed)"
)

var timeitSpecs = []opts.Spec{
	{Names: []string{"-n"}, Kind: opts.Int, Min: 1},
	{Names: []string{"-r"}, Kind: opts.Int, Min: 1},
	{Names: []string{"-w"}, Kind: opts.Int, Min: 0},
	{Names: []string{"-T"}, Kind: opts.Duration},
	{Names: []string{"--sync"}, Kind: opts.String, Choices: []string{"sample", "iter", "none"}},
	{Names: []string{"--clock"}, Kind: opts.String, Choices: []string{"host", "device"}},
	{Names: []string{"--gc"}, Kind: opts.String, Choices: []string{"collect", "off", "keep"}},
	{Names: []string{"--check"}, Kind: opts.String},
	{Names: []string{"--plot"}, Kind: opts.String, Choices: []string{"hist", "trace", "ecdf", "none"}, Multi: true},
	{Names: []string{"--svg"}, Kind: opts.Bool},
	{Names: []string{"-o"}, Kind: opts.Bool},
	{Names: []string{"-v"}, Kind: opts.String},
	{Names: []string{"-q"}, Kind: opts.Bool},
	{Names: []string{"-p"}, Kind: opts.Int, Min: 1},
	{Names: []string{"--json"}, Kind: opts.Bool},
	{Names: []string{"--vs"}, Kind: opts.String},
	{Names: []string{"--vs-check"}, Kind: opts.String},
}

// timeitArgs are the parsed arguments of %timeit / %%timeit.
type timeitArgs struct {
	Opts timing.Options
	// Setup runs once before each timed loop (%%timeit's first line);
	// Stmt is the timed statement; Vs the statement to interleave with.
	Setup, Stmt, Vs string
	// Check verifies Stmt's result; VsCheck Vs's (Check when not given).
	Check, VsCheck string
	Plots          []string // "hist", "trace", "ecdf"; empty for none
	SVG, Object    bool
	Var            string
	Quiet, JSON    bool
	Digits         int
}

// parseTimeit parses a %timeit line (cell false) or a %%timeit first line
// and body (cell true).
func parseTimeit(args, body string, cell bool) (*timeitArgs, error) {
	usage := timeitUsage
	if cell {
		usage = cellTimeitUsage
	}
	bad := func(opt, reason string) error {
		return &UsageError{Magic: "timeit", Option: opt, Reason: reason, Usage: usage}
	}
	p, err := opts.Parse("timeit", usage, args, timeitSpecs)
	if err != nil {
		return nil, err
	}
	a := &timeitArgs{Stmt: p.Rest, Check: p.Text("--check"), Vs: p.Text("--vs"), VsCheck: p.Text("--vs-check"), Var: p.Text("-v"),
		SVG: p.Has("--svg"), Object: p.Has("-o"), Quiet: p.Has("-q"), JSON: p.Has("--json"), Digits: p.Int("-p")}
	if cell {
		a.Setup, a.Stmt = p.Rest, strings.TrimSpace(body)
	}
	if a.Stmt == "" {
		if cell {
			return nil, bad("body", "the cell has nothing to time: put the statements to time below the %%timeit line")
		}
		return nil, bad("STATEMENT", "nothing to time: give a Go statement after the options, e.g. %timeit -n 10 x := 1")
	}
	if a.Quiet && a.JSON {
		return nil, bad("-q", "-q shows nothing and --json shows only JSON: choose one")
	}
	if a.VsCheck != "" && a.Vs == "" {
		return nil, bad("--vs-check", "checks the --vs statement: give --vs 'OTHER' too")
	}
	if why := checkSees(a.Check, a.Stmt, "the statement", "", false); why != "" {
		return nil, bad("--check", why)
	}
	if a.Vs != "" {
		vsCheck, shared := a.VsCheck, false
		if vsCheck == "" {
			vsCheck, shared = a.Check, true
		}
		if why := checkSees(vsCheck, a.Vs, "the --vs statement", "--vs-check EXPR", shared); why != "" {
			return nil, bad(map[bool]string{true: "--check", false: "--vs-check"}[shared], why)
		}
		a.VsCheck = vsCheck
	}
	if a.Var != "" && !isIdent(a.Var) {
		return nil, bad("-v", "\""+a.Var+"\" is not a Go identifier: name the variable like x or fastStep")
	}
	if a.Digits > 15 {
		return nil, bad("-p", "at most 15 significant digits")
	}
	o := &a.Opts
	o.Loops, o.Repeats = p.Int("-n"), p.Int("-r")
	if p.Has("-w") {
		o.Warmup = p.Int("-w")
		if o.Warmup == 0 {
			o.Warmup = timing.NoWarmup
		}
	}
	o.Budget = p.Duration("-T")
	if s := p.Text("--sync"); s != "" {
		o.Sync, _ = timing.ParseSyncMode(s)
	}
	if s := p.Text("--clock"); s != "" {
		o.TimeBy, _ = timing.ParseClockSource(s)
	}
	if s := p.Text("--gc"); s != "" {
		o.GC, _ = timing.ParseGCMode(s)
	}
	a.Plots = []string{"hist", "trace"}
	if s, ok := p.Str("--plot"); ok {
		a.Plots = nil
		for _, v := range strings.Split(s, ",") {
			if v == "none" {
				if s != "none" {
					return nil, bad("--plot", "\"none\" cannot be combined with other plots")
				}
				continue
			}
			a.Plots = append(a.Plots, v)
		}
	}
	return a, nil
}

// isIdent reports whether name is a Go identifier (ASCII letters, digits,
// underscore, or any non-ASCII letter).
func isIdent(name string) bool {
	if name == "" || name == "_" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}
