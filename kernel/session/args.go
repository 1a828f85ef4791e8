package session

import (
	"encoding"
	"flag"
	"fmt"
	"go/ast"
	"io"
	"reflect"
	"time"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The command line of cell code. A cell is package main of a program that
// `go run` would start as `main`: os.Args is []string{"main"} (plus what
// Options.Args or the cells set), never the kernel's own command line, and
// package flag parses that: flag.Parse, flag.Int, flag.NArg and the rest
// work on the session's flag.CommandLine, not the process's (which holds
// the kernel's flags: flag.NArg() was 3 in a fresh kernel). A cell that
// declares func main (a pasted program) starts with a fresh
// flag.CommandLine, as `go run` starts a fresh process, so running it again
// does not panic with "flag redefined".

// defaultArgs is os.Args of cell code when Options.Args is nil.
var defaultArgs = []string{"main"}

// cmdLine holds os.Args and flag.CommandLine of the session's cells. The
// interpreter binds os.Args, flag.CommandLine and flag.Usage to its
// fields: a cell that assigns them assigns these. Only cell code and the
// session between cells (under the cell lock) touch them.
type cmdLine struct {
	args  []string
	set   *flag.FlagSet
	usage func()
	out   io.Writer // the flag set's output: the running cell's stderr
}

func newCmdLine(args []string, stderr io.Writer) *cmdLine {
	if args == nil {
		args = defaultArgs
	}
	c := &cmdLine{args: append([]string(nil), args...), out: stderr}
	c.usage = c.defaultUsage
	c.reset()
	return c
}

// reset makes a fresh flag.CommandLine, named os.Args[0] as Go's is. Its
// errors panic (Go's CommandLine exits the process): the cell ends with
// the error, after the flag set printed it and the usage.
func (c *cmdLine) reset() {
	name := "main"
	if len(c.args) > 0 {
		name = c.args[0]
	}
	c.set = flag.NewFlagSet(name, flag.PanicOnError)
	c.set.SetOutput(c.out)
	c.set.Usage = func() { c.usage() }
}

// defaultUsage is Go's flag.Usage: the program's name and its flags.
func (c *cmdLine) defaultUsage() {
	fmt.Fprintf(c.set.Output(), "Usage of %s:\n", c.set.Name())
	c.set.PrintDefaults()
}

// symbols binds os.Args and package flag's functions to c.
func (c *cmdLine) symbols() map[string]map[string]reflect.Value {
	fs := func() *flag.FlagSet { return c.set }
	return map[string]map[string]reflect.Value{
		"os/os": {"Args": reflect.ValueOf(&c.args).Elem()},
		"flag/flag": {
			"CommandLine":   reflect.ValueOf(&c.set).Elem(),
			"Usage":         reflect.ValueOf(&c.usage).Elem(),
			"Parse":         reflect.ValueOf(func() { fs().Parse(c.args[min(1, len(c.args)):]) }),
			"Parsed":        reflect.ValueOf(func() bool { return fs().Parsed() }),
			"Arg":           reflect.ValueOf(func(i int) string { return fs().Arg(i) }),
			"Args":          reflect.ValueOf(func() []string { return fs().Args() }),
			"NArg":          reflect.ValueOf(func() int { return fs().NArg() }),
			"NFlag":         reflect.ValueOf(func() int { return fs().NFlag() }),
			"Lookup":        reflect.ValueOf(func(name string) *flag.Flag { return fs().Lookup(name) }),
			"Set":           reflect.ValueOf(func(name, value string) error { return fs().Set(name, value) }),
			"PrintDefaults": reflect.ValueOf(func() { fs().PrintDefaults() }),
			"Visit":         reflect.ValueOf(func(fn func(*flag.Flag)) { fs().Visit(fn) }),
			"VisitAll":      reflect.ValueOf(func(fn func(*flag.Flag)) { fs().VisitAll(fn) }),
			"Var":           reflect.ValueOf(func(v flag.Value, name, usage string) { fs().Var(v, name, usage) }),
			"Func":          reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().Func(name, usage, fn) }),
			"BoolFunc":      reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().BoolFunc(name, usage, fn) }),
			"TextVar": reflect.ValueOf(func(p encoding.TextUnmarshaler, name string, value encoding.TextMarshaler, usage string) {
				fs().TextVar(p, name, value, usage)
			}),
			"Bool":       reflect.ValueOf(func(name string, value bool, usage string) *bool { return fs().Bool(name, value, usage) }),
			"BoolVar":    reflect.ValueOf(func(p *bool, name string, value bool, usage string) { fs().BoolVar(p, name, value, usage) }),
			"Int":        reflect.ValueOf(func(name string, value int, usage string) *int { return fs().Int(name, value, usage) }),
			"IntVar":     reflect.ValueOf(func(p *int, name string, value int, usage string) { fs().IntVar(p, name, value, usage) }),
			"Int64":      reflect.ValueOf(func(name string, value int64, usage string) *int64 { return fs().Int64(name, value, usage) }),
			"Int64Var":   reflect.ValueOf(func(p *int64, name string, value int64, usage string) { fs().Int64Var(p, name, value, usage) }),
			"Uint":       reflect.ValueOf(func(name string, value uint, usage string) *uint { return fs().Uint(name, value, usage) }),
			"UintVar":    reflect.ValueOf(func(p *uint, name string, value uint, usage string) { fs().UintVar(p, name, value, usage) }),
			"Uint64":     reflect.ValueOf(func(name string, value uint64, usage string) *uint64 { return fs().Uint64(name, value, usage) }),
			"Uint64Var":  reflect.ValueOf(func(p *uint64, name string, value uint64, usage string) { fs().Uint64Var(p, name, value, usage) }),
			"Float64":    reflect.ValueOf(func(name string, value float64, usage string) *float64 { return fs().Float64(name, value, usage) }),
			"Float64Var": reflect.ValueOf(func(p *float64, name string, value float64, usage string) { fs().Float64Var(p, name, value, usage) }),
			"String":     reflect.ValueOf(func(name string, value string, usage string) *string { return fs().String(name, value, usage) }),
			"StringVar":  reflect.ValueOf(func(p *string, name string, value string, usage string) { fs().StringVar(p, name, value, usage) }),
			"Duration": reflect.ValueOf(func(name string, value time.Duration, usage string) *time.Duration {
				return fs().Duration(name, value, usage)
			}),
			"DurationVar": reflect.ValueOf(func(p *time.Duration, name string, value time.Duration, usage string) {
				fs().DurationVar(p, name, value, usage)
			}),
		},
	}
}

// declaresMain reports whether the cell declares func main.
func declaresMain(pc *cell.Parsed) bool {
	if pc.Decls == nil {
		return false
	}
	for _, d := range pc.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == cell.MainName {
			return true
		}
	}
	return false
}
