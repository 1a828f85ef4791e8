package session

import (
	"go/ast"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/bridge"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/decls"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/internal/yaegiprivate"
	"github.com/tick-kernel/tick/kernel/session/rt"
)

// vm is yaegi as the engine drives it: it compiles nodes and lets go of
// what yaegi keeps of them (compile), runs programs on a goroutine of their
// own that a second interrupt abandons (abandon.go), turns panics into the
// cell's error with the frames yaegi printed (panics.go), and says what the
// session's globals, packages and methods are (globals.go, methodsig.go).
type vm struct {
	ip    *interp.Interpreter
	rt    *rt.Runtime         // package ᐩrt of the cells' code
	decls *decls.Catalog      // what the cells declared
	ct    *bridge.Types       // the struct types cells declared
	diag  *diagnose.Diagnoser // explains the cells' errors

	mu      sync.Mutex     // guards the fields below
	running bool           // a cell runs: its panics' frames are kept
	frames  []string       // yaegi panic frames of the running cell
	funcs   diagnose.Funcs // the cells' function literals by position, to name runaway recursion (diagnose/recursion.go)
	// topLevel is set while a statement frameless made runs
	// (toplevel.go); only the cell's goroutine and the goroutine it runs
	// a piece on touch it.
	topLevel bool
}

// begin and end bracket a cell: yaegi's panic frames are kept for it.
func (vm *vm) begin() { vm.setRunning(true) }
func (vm *vm) end()   { vm.setRunning(false) }

func (vm *vm) setRunning(running bool) {
	vm.mu.Lock()
	vm.running, vm.frames = running, nil
	vm.mu.Unlock()
}

// takeFrames returns the panic frames yaegi printed and forgets them.
func (vm *vm) takeFrames() []string {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	f := vm.frames
	vm.frames = nil
	return f
}

// notePanicFrame keeps a frame line yaegi printed for a panic of the
// running cell (package stdio gives them here instead of to stderr).
func (vm *vm) notePanicFrame(line string) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.running && len(vm.frames) < 1000 {
		vm.frames = append(vm.frames, line)
	}
}

// compile compiles an AST node, turning interpreter crashes into errors,
// and lets go of what the interpreter keeps of it for its debugger
// (retention.go).
func (vm *vm) compile(n ast.Node) (prog *interp.Program, err error) {
	defer yaegiprivate.Release(vm.ip)
	defer func() {
		if r := recover(); r != nil {
			err = &diagnose.Crash{V: r}
		}
	}()
	return vm.ip.CompileAST(n)
}

// runNode compiles and runs n, a node of the code of c, returning the
// cell error if any.
func (vm *vm) runNode(c cell.Cell, n ast.Node) *Error {
	prog, err := vm.compile(n)
	if err != nil {
		return diagnose.CompileError(c, err)
	}
	return vm.execute(c, prog)
}

func (vm *vm) execute(c cell.Cell, prog *interp.Program) *Error {
	return vm.runProgram(c, prog)
}
