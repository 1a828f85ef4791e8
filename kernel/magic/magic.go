package magic

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Magic is a command cells invoke with %name (line magic) or %%name (cell
// magic) instead of Go code.
type Magic struct {
	// Name is what follows % or %%.
	Name string
	// Summary is one line for %lsmagic; Help is the full text for %help.
	Summary, Help string
	// Line and Cell say whether the magic can be used as %name and %%name.
	Line, Cell bool
	// Run executes one call. Its error becomes the cell's MagicError (a
	// *UsageError says which option was wrong), or Interrupted when the
	// user interrupted the call.
	Run func(ctx context.Context, c *Call) (Output, error)
}

// Call is one invocation of a magic: what the user wrote, and what the
// magic may use to do it.
type Call struct {
	// Name is the magic's name; Args the rest of its line; Body the lines
	// after a cell magic's first line.
	Name, Args, Body string
	// IsCell is true for %%name.
	IsCell bool
	// Cell is the number of the cell (its execution count).
	Cell int
	// Eval runs Go in the session for the magic; positions in what it
	// compiles are the magic's place in the cell.
	Eval Evaluator
	// Sink receives the magic's output, in order with the cell's.
	Sink session.CellSink
}

// Output is what a call produces besides what it streams and publishes.
type Output struct {
	// Value, when set, becomes the cell's value.
	Value *display.Data
	// Page, when set, becomes the cell's Result.Page (pager text).
	Page string
}

// Evaluator is what a magic sees of the Go engine, all of it: the one
// interface between the magics and the engine. *session.Evaluator
// implements it. What only some engines can do is declared here too, not
// discovered by type assertions: an engine without a capability returns
// an error wrapping errors.ErrUnsupported from its method.
type Evaluator interface {
	// Exec runs Go code (declarations and statements) as the magic's cell.
	Exec(code string) error
	// Eval evaluates a Go expression in the session's scope.
	Eval(expr string) (reflect.Value, error)
	// Values returns the session variables names, as they are (an
	// invalid Value for a name that is no variable), in one call to the
	// engine whatever their number: the %timeit walk reads a statement's
	// inputs before and after measuring with it.
	Values(names []string) []reflect.Value
	// SetVar binds a Go value to a session variable.
	SetVar(name string, v any) error
	// CompileTimed compiles, once, an interpreted func(n int) that runs
	// setup and then stmt n times (the loop itself has no interrupt
	// checkpoint), the same around an empty statement (the floor), and
	// says which functions stmt calls run interpreted: one call to the
	// engine, whatever the statement.
	CompileTimed(setup, stmt string) (session.Timed, error)
	// Interrupted reports whether the user interrupted the cell (magics
	// that wait on something else than Go, a shell command, poll it).
	Interrupted() bool
	// Vars lists the session's variables and constants (%who, %whos).
	Vars() []session.Var
	// Locate is where text, code of the magic, is in the cell.
	Locate(text string) cell.Pos
	// Use registers compiled packages' yaegi symbol tables ("path/name"
	// keys), so that Go the magic runs next can import them (%%go). An
	// engine that cannot load compiled Go returns errors.ErrUnsupported.
	Use(tables map[string]map[string]reflect.Value) error
}

var _ Evaluator = (*session.Evaluator)(nil)

// registry holds a Runner's magics by name.
type registry struct {
	mu     sync.Mutex
	magics map[string]*Magic
}

// Register adds m, replacing none: a second magic with the same name is
// an error.
func (r *registry) Register(m Magic) error {
	if m.Name == "" || strings.ContainsAny(m.Name, " \t%?") {
		return fmt.Errorf("magic: invalid magic name %q", m.Name)
	}
	if m.Run == nil || !m.Line && !m.Cell {
		return fmt.Errorf("magic: %q needs Run and Line or Cell", m.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.magics[m.Name]; dup {
		return fmt.Errorf("magic: %q is already registered", m.Name)
	}
	r.magics[m.Name] = &m
	return nil
}

// Magics returns the registered magics sorted by name.
func (r *registry) Magics() []Magic {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Magic, 0, len(r.magics))
	for _, m := range r.magics {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (r *registry) lookup(name string) *Magic {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.magics[name]
}

// UsageError reports bad arguments to a magic (package opts makes it for
// a bad option; a magic returns one for a bad argument).
type UsageError = opts.UsageError
