// Package diagnose turns what went wrong in a cell into errors that say
// what happened and what to do next: compile errors with cell positions
// (CompileError), interpreter crashes named as the construct behind them
// (Crash), panics worded as Go words them (GoPanicMessage), with the
// numbers of a bounds panic read from the cell's variables (BoundsDetail)
// and the native frames of the stack (GoFrames); compile errors reworded
// when the interpreter's message points the wrong way, and hints added
// when it leaves the user guessing (Explain); runaway recursion named by
// the function that went too deep (RecursionSite, DepthMessage).
package diagnose

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
)

// Scope is what a Diagnoser reads of the session besides its catalog.
type Scope interface {
	// Globals returns the session's variables and constants.
	Globals() map[string]reflect.Value
	// Symbols returns the exported symbols of the package cells imported
	// under name, or nil.
	Symbols(name string) map[string]reflect.Value
}

// Diagnoser explains the errors of one session's cells.
type Diagnoser struct {
	scope  Scope
	decls  *decls.Catalog
	hidden func(path string) bool
}

// New returns the Diagnoser of a session: scope and catalog are the
// session's; hidden says which of its packages are its own, never
// suggested in a hint.
func New(scope Scope, catalog *decls.Catalog, hidden func(path string) bool) *Diagnoser {
	return &Diagnoser{scope: scope, decls: catalog, hidden: hidden}
}

// Explain returns e, an error of the Go code of c, reworded when the
// interpreter's message points the wrong way (explain.go) and with a hint
// when the session knows what to do next (hints.go); else e.
func (d *Diagnoser) Explain(e *cell.Error, c cell.Cell) *cell.Error {
	return d.withHint(d.explain(e, c), c)
}

// Crash is an interpreter crash (a panic inside yaegi while compiling),
// such as the "nil type" panics of constructs it lacks: V is the panic
// value. CompileError explains it.
type Crash struct{ V any }

func (c *Crash) Error() string { return fmt.Sprint(c.V) }

// CompileError converts a parse or compile error of the code of c.
func CompileError(c cell.Cell, err error) *cell.Error {
	var crash *Crash
	if errors.As(err, &crash) {
		if e := constantError(c, crash.V); e != nil {
			return e
		}
		return unsupportedError(c, crash.V)
	}
	var lines []string
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for i, e := range list {
			if i == 5 {
				lines = append(lines, fmt.Sprintf("(and %d more errors)", len(list)-5))
				break
			}
			lines = append(lines, cell.Message(c.N, e.Error()))
		}
	} else {
		lines = strings.Split(cell.Message(c.N, err.Error()), "\n")
	}
	if len(lines) == 0 {
		lines = []string{err.Error()}
	}
	return cell.Errorf(cell.CompileError, "%s", lines[0]).Trace(lines[1:]...)
}

// unsupportedError reports a known interpreter crash as a construct tick
// cannot run yet.
func unsupportedError(c cell.Cell, v any) *cell.Error {
	return cell.Errorf(cell.Unsupported, "cell[%d]: this cell uses a Go construct the interpreter (yaegi) cannot compile (it crashed with %q). "+
		"Known cases: range over a function, a generic function called with untyped constants of mixed kinds, "+
		"and some uses of generics. Rewrite that construct (see docs/compatibility.md) and run the cell again", c.N, fmt.Sprint(v))
}

// Crash names the construct behind an Unsupported error of the parsed
// cell pc when the cell shows a known one (range over a function).
func (d *Diagnoser) Crash(e *cell.Error, pc *cell.Parsed) *cell.Error {
	if !errors.Is(e, cell.Unsupported) {
		return e
	}
	var found *cell.Pos
	inspect := func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || found != nil {
			return found == nil
		}
		switch x := r.X.(type) {
		case *ast.FuncLit:
			p := pc.Pos(r.For)
			found = &p
		case *ast.Ident:
			if text, _ := d.decls.Decl(x.Name); strings.HasPrefix(text, "func ") {
				p := pc.Pos(r.For)
				found = &p
			}
		}
		return true
	}
	if pc.Decls != nil {
		ast.Inspect(pc.Decls, inspect)
	}
	for _, st := range pc.Stmts {
		ast.Inspect(st, inspect)
	}
	if found == nil {
		return e
	}
	return cell.Errorf(cell.Unsupported, "%s: range over a function (Go 1.23 iterators) is not supported by the interpreter; "+
		"call the function with a yield callback instead: seq(func(v T) bool { ...; return true })", found)
}

// Interrupted is the error of a cell an interrupt stopped.
func Interrupted() *cell.Error {
	return cell.Errorf(cell.Interrupted, "the cell was stopped by an interrupt; everything defined before it is kept")
}

// Internal is the error of a crash of the session itself (a panic of
// its own code), r the panic value.
func Internal(r any) *cell.Error {
	return cell.Errorf(cell.RuntimeError, "internal error in the session: %v (the session goes on; please report this with the cell that caused it)", r).
		Trace(GoFrames(debug.Stack())...)
}

// internalFrame reports whether a Go stack function belongs to the
// machinery (interpreter, reflection, runtime, this package) rather than to
// native code the user called.
func internalFrame(fn string) bool {
	for _, p := range []string{"github.com/traefik/yaegi/", "reflect.", "runtime.", "runtime/debug.", "tick/kernel.", "tick/kernel/", "github.com/tick-kernel/tick/", "main.", "panic(", "created by ", "testing."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// GoFrames extracts the native frames of a goroutine stack dump: the
// function line and its file:line, without machinery frames.
func GoFrames(stack []byte) []string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if fn == "" || strings.HasPrefix(fn, "goroutine ") {
			i--
			continue
		}
		if internalFrame(fn) {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(file, " +0x"); j > 0 {
			file = file[:j]
		}
		out = append(out, "    "+fn, "        "+file)
		if len(out) >= 40 {
			break
		}
	}
	return out
}

// reflectPanics maps the messages of panics raised inside the interpreter's
// reflection (where compiled Go raises a runtime error) to Go's wording, and
// says what the interpreter leaves out.
var reflectPanics = []struct{ yaegi, goMsg string }{
	{"reflect: slice index out of range", "runtime error: index out of range: a slice index is negative or not less than len"},
	{"reflect: array index out of range", "runtime error: index out of range: an array index is negative or not less than len"},
	{"reflect: string index out of range", "runtime error: index out of range: a string index is negative or not less than len"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= cap"},
	{"reflect.Value.Slice: string slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= len"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= max <= cap"},
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference: a field was used through a nil pointer"},
	{"reflect: Method on nil interface value", "runtime error: invalid memory address or nil pointer dereference: a method was called on a nil interface value"},
	{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference: a nil func was called"},
	{"reflect: Call using zero Value argument", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
	{"reflect: call of reflect.Value.Set on zero Value", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
}

// panicPos matches the position yaegi puts before some runtime panics
// ("3:7: interface conversion: ...").
var panicPos = regexp.MustCompile(`^(\d+:\d+): (interface conversion: )`)

// GoPanicMessage rewrites a panic message of interpreted code the way Go
// says it. note, when set, is a line for the traceback: the interpreter's
// own message and what to do about what it leaves out.
func GoPanicMessage(c cell.Cell, msg string) (string, string) {
	for _, r := range reflectPanics {
		if msg == r.yaegi {
			return r.goMsg, fmt.Sprintf("(the interpreter reported %q and does not say which value; "+
				"print the index, length or pointer before this line to see it)", msg)
		}
	}
	if m := panicPos.FindStringSubmatchIndex(msg); m != nil {
		return "runtime error: " + msg[m[4]:] + " (at " + cell.Message(c.N, msg[m[2]:m[3]]) + ")", ""
	}
	if msg == "errors: *target must be interface or implement error" {
		return msg, "errors.As cannot match a type declared in a cell when it has no fields (the interpreter cannot tell it " +
			"from any other struct{}): give the type a field, or match with errors.Is against a sentinel value " +
			"(var ErrX = errors.New(...), wrapped with %w) instead"
	}
	return msg, ""
}
