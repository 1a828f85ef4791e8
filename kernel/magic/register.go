// Package magic owns tick's magics: the commands cells invoke with %name
// (line magic) or %%name (cell magic). A Runner wraps the Go engine
// (kernel/session): it cuts each cell into segments (kernel/session/cell),
// runs the Go ones on the engine and dispatches the magic ones to their
// Magic, which sees the engine only through the Evaluator. Built in:
// %lsmagic, %help and %env (builtin.go); the timing magics are %timeit and
// %%timeit (statistics, phases, provenance and charts from package timing
// and plotting), %time and %%time (one synchronized run with the runtime's
// phase breakdown), %compare (saved results side by side) and %bench (Go
// benchmark functions); the shell magics and %who. The profiling magics
// (%prof, %viz) are in kernel/magic/profiling, compiled Go (%go, %%go,
// the session's Importer) in kernel/magic/compiled; they register with a
// Runner like these. help.md holds the help texts of all of them, which
// docs/magics.md mirrors for users.
package magic

import (
	"context"
	_ "embed"
	"strings"
)

//go:embed help.md
var helpMD string

// Magics returns the timing magics (%timeit, %time, %compare, %bench),
// the shell magics (!cmd, %pwd, %cd), %who and GoNB's script magics
// (%%bash, %%sh, %%script, %%writefile, %exec, %version), ready for
// NewRunner or Runner.Register. The profiling magics are package
// profiling's, compiled Go's package compiled's.
func Magics() []Magic {
	return append(append(append(append(timingMagics(), shellMagics()...), whoMagics()...), benchMagic()), gonbMagics()...)
}

// timingMagics are the timing magics.
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
		{Name: "compare", Line: true, Help: help("compare"),
			Summary: "compare results saved with %timeit -v: benchstat-style table and box plots",
			Run: func(_ context.Context, c *Call) (Output, error) {
				v, err := compare(c.Eval, c.Sink, c.Args)
				return Output{Value: v}, err
			}},
	}
}

// Help returns the help text of magic name: the section "## %name" of
// help.md (the magics of other packages keep their help there too).
func Help(name string) string { return help(name) }

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
