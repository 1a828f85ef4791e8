// Package session is tick's Go engine: one notebook session on the yaegi
// interpreter. Cells run in order and share state; output streams to the
// running cell's Sink; errors and panics point at cell positions
// (cell[3]:2:5); an interrupt stops the running cell at its next checkpoint
// and keeps all state. A cell's Go goes through a pipeline: package cell
// parses, splits and orders it, package rewrite runs its named passes over
// the AST, yaegi compiles and runs the pieces. It knows nothing about
// Jupyter, nor about magics: api.go is its contract with the front ends
// (the kernel, `tick run`, tests), which run cells through kernel/magic's
// Runner; that drives a cell with ExecuteWith and gives each magic an
// Evaluator (eval.go).
package session

import (
	"context"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
	"github.com/tick-kernel/tick/kernel/session/rt"
	"github.com/tick-kernel/tick/kernel/session/stdgo"
	"github.com/tick-kernel/tick/kernel/session/stdio"
	"github.com/tick-kernel/tick/kernel/session/symbols"
	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// Options configure a Session. The zero value is ready to use.
type Options struct {
	// Args is os.Args as cell code sees it, and what flag.Parse parses;
	// nil means ["main"], the command line of a program `go run` started
	// without arguments (args.go).
	Args []string
	// Symbols are extra yaegi symbol tables ("path/name" → exported
	// names) for packages cells may import, in addition to the standard
	// library and tick's own packages (kernel/session/symbols).
	Symbols []map[string]map[string]reflect.Value
	// Background receives stream output that arrives while no cell runs
	// (from goroutines a finished cell left running). Nil keeps up to
	// 64 KiB of it and shows it at the start of the next cell.
	Background io.Writer
	// ProcessStreams makes the process's own standard output (fd 1) and
	// os.Stderr the running cell's, so that compiled Go (%%go plugins,
	// imported compiled packages) and C print into the cell as
	// interpreted code does. Only for a process that exists to run cells
	// (tick engine); fd 2 stays the process's, for Go's crash reports.
	ProcessStreams bool
	// MaxDepth bounds the call depth of interpreted functions; deeper
	// recursion ends the cell with an error. Zero means 5000.
	MaxDepth int
	// RewriteDump, when set, receives the Go source of every cell after
	// each rewrite pass (package rewrite), for debugging the rewrites.
	RewriteDump io.Writer
	// Importer, when set, provides the packages cells import that the
	// symbol tables lack (compiled Go: kernel/gocompile, through
	// kernel/magic's Compiled). See imports.go.
	Importer Importer
	// GoPath is the interpreter's GOPATH: source packages under
	// GoPath/src are interpreted when imported (the Importer lays them
	// out there when it cannot compile them).
	GoPath string
}

// Session is one notebook session. Execute runs one cell at a time; the
// other methods are safe to call while a cell runs.
type Session struct {
	opts Options
	vm   *vm         // yaegi, as the engine drives it
	rt   *rt.Runtime // package ᐩrt of the cells' code

	exec sync.Mutex    // the cell lock: held by ExecuteWith while a cell runs
	io   *stdio.Router // the standard streams of cell code

	mu     sync.Mutex // guards the fields below
	cell   *Cell      // the running cell, nil between cells
	values []any      // the value of the running cell's last expression
	// refreshing is set while refreshCallers declares functions again;
	// only the cell's goroutine touches it (under the cell lock).
	refreshing bool
	count      int // execution count of the running (or last) cell
	nvars      int // counter for names made by SetVar and CompileLoop

	decls *decls.Catalog      // what the cells declared, behind its own lock
	diag  *diagnose.Diagnoser // explains the cells' errors

	ins *inspector // completion and inspection (assist.go)

	cmd        *cmdLine      // os.Args and flag.CommandLine of cell code (args.go)
	ct         *bridge.Types // the struct types cells declared, for fmt and json (package bridge)
	ctImported bool          // the cell-types package is imported (bridges.go)
}

// New starts a session: a fresh interpreter with the standard library,
// tick's own packages and opts.Symbols.
func New(opts Options) (*Session, error) {
	s := &Session{opts: opts, ct: bridge.NewTypes()}
	s.io = stdio.New(stdio.Options{Background: opts.Background, ProcessStreams: opts.ProcessStreams, PanicFrame: func(line string) { s.vm.notePanicFrame(line) }})
	s.rt = rt.New(int64(opts.MaxDepth), rt.Hooks{
		Value:   func(v any) { s.setValues(v) },
		Rich:    func(mime, text string) { s.setValues([2]string{mime, text}) },
		GoPanic: s.goroutinePanic,
		Print:   func(text string) { s.emit("stderr", text) },
	})
	s.cmd = newCmdLine(opts.Args, s.io.Writer("stderr"))
	ip := interp.New(interp.Options{
		Stdin:        s.io.Stdin(),
		Stdout:       s.io.Writer("stdout"),
		Stderr:       s.io.Writer("stderr"),
		Args:         s.cmd.args,
		Unrestricted: true,
		GoPath:       opts.GoPath,
	})
	tables := append([]map[string]map[string]reflect.Value{std.Symbols, s.io.Symbols(), symbols.Exports(), s.rt.Symbols(rtPath), stdgo.Packages()}, opts.Symbols...)
	s.decls = decls.New(tables)
	s.diag = diagnose.New(scope{s}, s.decls, func(p string) bool { return strings.HasPrefix(p, rtPath) })
	s.vm = &vm{ip: ip, rt: s.rt, decls: s.decls, ct: s.ct, diag: s.diag}
	for _, t := range tables {
		if err := s.vm.ip.Use(t); err != nil {
			return nil, fmt.Errorf("session: loading symbols: %w", err)
		}
	}
	if err := s.vm.ip.Use(s.ct.Exports()); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	if err := s.vm.ip.Use(s.ct.JSONExports()); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	if err := s.vm.ip.Use(s.ct.FmtSymbols(s.io.Writer("stdout"))); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	// after every table with "fmt/fmt" (which makes yaegi bind os.Args
	// and flag.CommandLine again)
	if err := s.vm.ip.Use(s.cmd.symbols()); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	helpers, ordered := stdgo.Helpers(), stdgo.Ordered(append([]map[string]map[string]reflect.Value{std.Symbols, symbols.Exports()}, opts.Symbols...)...)
	for name, typ := range ordered {
		helpers[name] = typ
	}
	if err := s.vm.ip.Use(interp.Exports{rtPath + "/rt": helpers, "iter/iter": {}}); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	if err := s.vm.ip.Use(interp.Exports{varsPath + "/vars": {}}); err != nil {
		return nil, fmt.Errorf("session: loading symbols: %w", err)
	}
	if _, err := s.vm.ip.Eval(fmt.Sprintf("import (%s %q; %s %q)", rewrite.Runtime, rtPath, varsName, varsPath)); err != nil {
		return nil, fmt.Errorf("session: loading the session runtime: %w", err)
	}
	if err := s.bindEntry(); err != nil {
		return nil, err
	}
	if err := s.loadPrelude(slices.Sorted(maps.Keys(ordered))); err != nil {
		return nil, err
	}
	s.ins = newInspector(s.vm, s.decls, &s.exec, s.opts.Importer)
	return s, nil
}

// bindEntry binds ᐩrt.Enter and ᐩrt.Leave under the plain names the
// function entries of rewritten code call (rewrite.EnterFunc), in a
// package of their own that every cell sees by a dot import.
func (s *Session) bindEntry() error {
	rt := s.rt.Symbols(rtPath)[rtPath+"/rt"]
	syms := map[string]reflect.Value{rewrite.EnterFunc: rt["Enter"], rewrite.LeaveFunc: rt["Leave"]}
	if err := s.vm.ip.Use(interp.Exports{entryPath + "/entry": syms}); err != nil {
		return fmt.Errorf("session: loading symbols: %w", err)
	}
	if _, err := s.vm.ip.Eval(fmt.Sprintf("import . %q", entryPath)); err != nil {
		return fmt.Errorf("session: loading the session runtime: %w", err)
	}
	return nil
}

// loadPrelude declares the helpers that bridge modern Go: the builtins
// yaegi lacks and the generic functions of the standard library (package
// stdgo), whose constraint ᐩordered also lists the named ordered types of
// the symbol tables (stdgo.Ordered), bound in ᐩrt.
func (s *Session) loadPrelude(ordered []string) error {
	if _, err := s.vm.ip.Eval(stdgo.Source(ordered...)); err != nil {
		return fmt.Errorf("session: loading the standard library's generic functions: %w", err)
	}
	if !s.importCellTypes() {
		return fmt.Errorf("session: importing the cell types package %s", bridge.Path)
	}
	return nil
}

// Interrupt stops the running cell at its next checkpoint (loop iteration
// or function entry). It is a no-op when no cell runs.
func (s *Session) Interrupt() {
	s.rt.Interrupt()
}

// Interrupted reports whether an interrupt is pending for the running
// cell. Native code that works for long (device synchronize, sleeps) polls
// it and returns early.
func (s *Session) Interrupted() bool { return s.rt.Interrupted() }

// Execute runs one cell of Go and reports its outputs to sink. Cancelling
// ctx interrupts the cell. Magics are not Go: the magic runner
// (kernel/magic) runs cells with magics through ExecuteWith.
func (s *Session) Execute(ctx context.Context, c Cell, sink Sink) Result {
	return s.ExecuteWith(ctx, c, sink, func(r *Run) Result { return r.Go(r.Cell().All()) })
}

// ExecuteWith runs cell c as Execute does (one cell at a time, output to
// sink in order, display calls routed to it, ctx's cancellation an
// interrupt, a crash of the session an error), but lets run decide what
// runs: it is called once, with the running cell, and its result is the
// cell's.
func (s *Session) ExecuteWith(ctx context.Context, c Cell, sink Sink, run func(*Run) Result) (res Result) {
	s.exec.Lock()
	defer s.exec.Unlock()
	// no interrupt pending, no call depth, the sync types watching this
	// cell: before the cell counts as running, so an interrupt from then
	// on is the cell's
	restoreSig := s.rt.Begin()
	release := s.ins.asst.Hold() // the assistant's warm-up waits: the cell has the CPUs (assist.Hold)
	out := s.begin(sink, &c)
	r := &Run{s: s, cell: &cell.Cell{N: c.Count, Code: c.Code}, sink: out} // display calls and magics keep their place among printed text
	restore := display.Use(r.sink)
	stopWatch := context.AfterFunc(ctx, s.Interrupt)
	defer func() {
		stopWatch()
		restoreSig()
		restore()
		release()
		s.end(out)
	}()
	defer func() {
		if v := recover(); v != nil {
			res = Result{Err: diagnose.Internal(v)}
		}
	}()
	if ctx.Err() != nil {
		return Result{Err: diagnose.Interrupted()}
	}
	return run(r)
}

// Run is a cell running on the session, as ExecuteWith hands it to the
// code that runs the cell's segments.
type Run struct {
	s    *Session
	cell *cell.Cell
	sink CellSink
}

// Cell is the running cell.
func (r *Run) Cell() *cell.Cell { return r.cell }

// Sink is where the cell's output goes: writes to it keep their order
// among the text the cell printed.
func (r *Run) Sink() CellSink { return r.sink }

// Interrupted reports whether an interrupt is pending for the cell.
func (r *Run) Interrupted() bool { return r.s.Interrupted() }

// Go runs the Go code of sp, a span of the running cell (positions are
// the cell's own), and adds a hint to a compile error when the session
// knows one.
func (r *Run) Go(sp cell.Span) Result {
	c := sp.Padded()
	res := r.s.run(c)
	res.Err = r.s.diag.Explain(res.Err, c)
	return res
}

// Evaluator returns the evaluator of the magic seg of the running cell:
// the Go it runs counts as the cell's, and the code it compiles from the
// magic's text reports errors at that text's place in the cell.
func (r *Run) Evaluator(seg cell.Segment) *Evaluator {
	return &Evaluator{s: r.s, n: r.cell.N, seg: &seg}
}

// begin makes the cell's output the destination of stream output and
// resets per-cell state.
func (s *Session) begin(sink Sink, c *Cell) *stdio.Cell {
	out := s.io.Begin(sink, c.Code, c.Stdin)
	s.mu.Lock()
	s.cell, s.values = c, nil
	s.count = c.Count
	s.mu.Unlock()
	s.vm.begin()
	return out
}

func (s *Session) end(out *stdio.Cell) {
	s.io.End(out)
	s.mu.Lock()
	s.cell, s.values = nil, nil // the value is the Result's now: not kept alive by the session
	s.mu.Unlock()
	s.vm.end()
	s.rt.ClearStop()
	s.ins.asst.RefreshInBackground() // the assistant's model of the cells, before the next request (assist.go)
}

// emit routes stream text to the running cell, or to the background.
func (s *Session) emit(name, text string) { s.io.Emit(name, text) }

func (s *Session) setValues(v any) {
	s.mu.Lock()
	s.values = append(s.values, v)
	s.mu.Unlock()
}

// goroutinePanic reports a panic recovered by the guard around a goroutine
// started by user code.
func (s *Session) goroutinePanic(r any) {
	if _, ok := r.(rt.InterruptSignal); ok {
		s.emit("stderr", "goroutine stopped by interrupt\n")
		return
	}
	frames := s.vm.takeFrames()
	if sig, ok := r.(rt.DepthSignal); ok {
		s.mu.Lock()
		count := s.count
		s.mu.Unlock()
		s.emit("stderr", "runaway recursion in a goroutine: "+depthMessage(s.vm.recursionSite(cell.Cell{N: count}, frames), sig)+"\n")
		return
	}
	s.emit("stderr", fmt.Sprintf("panic in goroutine: %v\n(the goroutine ended; the session goes on)\n", r))
}

var _ Runner = (*Session)(nil)

// rtPath is the import path of the per-session runtime package that
// rewritten cells call (package rt: checkpoints, goroutine guards, cell
// values). It is bound under rewrite.Runtime, a name user code will not
// collide with.
const rtPath = "tick/kernel/session/rt"

// entryPath is the import path of the function-entry calls (bindEntry).
const entryPath = "tick/kernel/session/entry"

// checkpointByCall says whether loop checkpoints call ᐩrt.Interrupted()
// (race-detector builds) instead of reading *ᐩrt.Stop.
const checkpointByCall = rt.CheckpointByCall

// Stdout returns a writer that sends text to the standard output of the
// running cell (or, between cells, wherever Options.Background says). Native
// libraries give it to their debug output so that it lands in the notebook,
// not on the kernel process's stdout.
func (s *Session) Stdout() io.Writer { return s.io.Writer("stdout") }

// Stderr is Stdout's standard error: warnings of the runtime's own (a
// refused cache directory) go there.
func (s *Session) Stderr() io.Writer { return s.io.Writer("stderr") }
