// Package magic owns tick's magics: the commands cells invoke with %name
// (line magic) or %%name (cell magic). A Runner wraps the Go engine
// (kernel/session): it cuts each cell into segments (kernel/session/cell),
// runs the Go ones on the engine and dispatches the magic ones to their
// Magic, which sees the engine only through a small Evaluator. Built in:
// %lsmagic, %help and %env (builtin.go); the timing magics are %timeit and
// %%timeit (statistics, phases, provenance and charts from package timing
// and plotting), %time and %%time (one synchronized run with the runtime's
// phase breakdown) and %compare (saved results side by side); the
// profiling magics are %prof and %%prof (the runtime's event timeline,
// kernel table, overlap, Chrome trace and Go profiles, from package
// profile) and %viz (a tensor's graph → schedule → kernels, from package
// viz). help.md holds their help texts, which docs/magics.md mirrors for
// users.
package magic

import (
	"context"
	_ "embed"
	"strings"
)

//go:embed help.md
var helpMD string

// Magics returns the timing, profiling, shell (!cmd, %pwd, %cd) and
// %who magics, ready for NewRunner or Runner.Register.
func Magics() []Magic {
	return append(append(timingMagics(), shellMagics()...), whoMagics()...)
}

// timingMagics are the timing and profiling magics.
func timingMagics() []Magic {
	return []Magic{
		{Name: "timeit", Line: true, Cell: true, Help: help("timeit"),
			Summary: "time a statement: phases, median ± CI, warnings, provenance and charts",
			Run: func(ctx context.Context, c *Call) (Output, error) {
				v, err := timeit(ctx, c.Eval, c.Sink, c.Args, c.Body, c.IsCell)
				return Output{Value: v}, err
			}},
		{Name: "time", Line: true, Cell: true, Help: help("time"),
			Summary: "run a statement once, synchronized: wall, CPU and runtime phases",
			Run: func(ctx context.Context, c *Call) (Output, error) {
				return Output{}, timeOnce(ctx, c.Eval, c.Sink, c.Args, c.Body, c.IsCell)
			}},
		{Name: "prof", Line: true, Cell: true, Help: help("prof"),
			Summary: "profile a statement: timeline of host and device, kernel table, overlap, Chrome trace, Go profiles",
			Run: func(ctx context.Context, c *Call) (Output, error) {
				v, err := prof(ctx, c.Eval, c.Sink, c.Args, c.Body, c.IsCell)
				return Output{Value: v}, err
			}},
		{Name: "viz", Line: true, Help: help("viz"),
			Summary: "draw a tensor's lazy graph with the kernels the scheduler makes of it, their IR and source",
			Run: func(_ context.Context, c *Call) (Output, error) {
				return Output{}, vizMagic(c.Eval, c.Sink, c.Args)
			}},
		{Name: "compare", Line: true, Help: help("compare"),
			Summary: "compare results saved with %timeit -v: benchstat-style table and box plots",
			Run: func(_ context.Context, c *Call) (Output, error) {
				v, err := compare(c.Eval, c.Sink, c.Args)
				return Output{Value: v}, err
			}},
	}
}

// help returns the section "## %name" of help.md, without its heading.
func help(name string) string {
	head := "## %" + name + "\n"
	i := strings.Index(helpMD, head)
	if i < 0 {
		panic("magic: help.md has no section " + head) // help.md is embedded: a missing section is a bug here
	}
	text := helpMD[i+len(head):]
	if j := strings.Index(text, "\n## "); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSpace(text)
}
