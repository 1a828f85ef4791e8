// Package rt is what rewritten cell code calls at run time, as package
// ᐩrt (rewrite.Runtime): the interrupt checkpoints of loops and function
// entries and the call-depth guard, the blocking operations made
// interruptible (channel operations, time.Sleep, and the sync types Mutex,
// RWMutex and WaitGroup for interpreted code), the cell's own defers, the
// print builtins, clear, and the make guard against the memory limit. A
// session has one Runtime; the engine binds its Symbols when it starts and
// resets it at every cell.
package rt

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// DefaultMaxDepth bounds interpreted call depth: deeper recursion is
// reported as an error instead of overflowing the Go stack (which kills the
// process). Unwinding a panic through yaegi costs time quadratic in the
// depth (each interpreted frame recovers and re-panics): 5,000 frames
// unwind in about 2 s here, 20,000 in about 30 s.
const DefaultMaxDepth = 5000

// InterruptSignal is the sentinel panic value of an interrupt checkpoint:
// the cell ends as Interrupted.
type InterruptSignal struct{}

// DepthSignal is the sentinel panic value of runaway recursion: a call
// was deeper than Depth-1 interpreted calls.
type DepthSignal struct{ Depth int64 }

// Hooks are what the runtime reports to the engine.
type Hooks struct {
	// Value and Rich receive the value of the cell's last expression and
	// its rich outputs (rewrite.ValueProbe, rewrite.ValueStmt).
	Value func(v any)
	Rich  func(mime, text string)
	// GoPanic receives a panic recovered by the guard around a goroutine
	// cell code started.
	GoPanic func(r any)
	// Print receives the text of the print and println builtins (Go's
	// runtime writes it to stderr).
	Print func(text string)
}

// Runtime is one session's package ᐩrt. Its interrupt flag is read by
// the loop checkpoints (stopflag.go).
type Runtime struct {
	stop     stopFlag
	sig      stopSignal // closed by Interrupt: what blocking operations wait on (blocking.go)
	abandon  stopSignal // closed by a second Interrupt: the cell stops waiting
	depth    atomic.Int64
	maxDepth int64
	unwind   atomic.Pointer[unwind] // runaway recursion ending a goroutine (depth.go)
	ended    atomic.Pointer[DepthSignal]
	hooks    Hooks

	mu     sync.Mutex // guards defers
	defers cellDefers
}

// New returns a Runtime whose interpreted calls may be maxDepth deep
// (DefaultMaxDepth when ≤ 0).
func New(maxDepth int64, h Hooks) *Runtime {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	r := &Runtime{maxDepth: maxDepth, hooks: h}
	r.sig.done() // DoneP points at a channel from the start
	return r
}

// Interrupt stops the running cell at its next checkpoint or blocking
// operation; a second Interrupt (while the first is pending) also closes
// Abandoned.
func (r *Runtime) Interrupt() {
	if r.stop.load() {
		r.abandon.fire()
	}
	r.stop.set()
	r.sig.fire()
}

// Interrupted reports whether an interrupt is pending.
func (r *Runtime) Interrupted() bool { return r.stop.load() }

// Abandoned is closed by the second interrupt of a cell: its code should
// stop being waited for.
func (r *Runtime) Abandoned() <-chan struct{} { return r.abandon.done() }

// ClearStop resets the interrupt: the flag, and fresh channels for the
// blocking operations.
func (r *Runtime) ClearStop() {
	r.stop.clear()
	r.sig.reset()
	r.abandon.reset()
}

// Begin readies the runtime for a cell: no interrupt, no call depth. It
// returns the function that ends the cell's watch of the interrupt by the
// session's sync types (Watch).
func (r *Runtime) Begin() (end func()) {
	r.ClearStop()
	r.depth.Store(0)
	r.unwind.Store(nil)
	r.ended.Store(nil)
	return useStopSignal(&r.sig)
}

func (r *Runtime) interrupted() {
	if r.stop.load() {
		panic(InterruptSignal{})
	}
}

// enter is every interpreted function's entry: its interrupt checkpoint
// and its count of the call depth.
//
// The depth limit is per goroutine (Go has no goroutine-local counter):
// r.depth counts the interpreted calls in flight on all the session's
// goroutines, a cheap bound that is exceeded first; only then does enter
// ask whether the calling goroutine's own stack is that deep, by asking
// runtime.Callers to skip the Go frames maxDepth interpreted calls make
// at least (framesPerCall each). Thousands of goroutines each a few calls
// deep are therefore not "runaway recursion"; one goroutine maxDepth
// calls deep is.
func (r *Runtime) enter() {
	if r.stop.load() {
		panic(InterruptSignal{})
	}
	if d := r.depth.Add(1); d > r.maxDepth && deepStack(r.maxDepth) {
		r.depth.Add(-1)
		r.exceeded() // depth.go: ends the goroutine
	}
}

// framesPerCall is the fewest Go frames one interpreted call adds to the
// goroutine's stack (yaegi 0.16: 2 for a function, 6 for a method or a
// closure; measured with runtime.Callers in TestDepthIsPerGoroutine).
const framesPerCall = 2

// deepStack reports whether the calling goroutine's stack holds more Go
// frames than maxDepth interpreted calls make at least.
func deepStack(maxDepth int64) bool {
	var pc [1]uintptr
	return runtime.Callers(int(maxDepth)*framesPerCall, pc[:]) > 0
}

func (r *Runtime) leave() {
	r.depth.Add(-1)
	if u := r.unwind.Load(); u != nil {
		r.unwinding(u) // depth.go
	}
}

// Symbols returns the yaegi symbol tables of the runtime: package ᐩrt
// under path ("path/rt"), and time.Sleep and the sync types Mutex,
// RWMutex and WaitGroup for interpreted code (blocking.go).
func (r *Runtime) Symbols(path string) map[string]map[string]reflect.Value {
	h := r.hooks
	syms := map[string]reflect.Value{
		"Interrupted": reflect.ValueOf(r.interrupted),
		"Enter":       reflect.ValueOf(r.enter),
		"Leave":       reflect.ValueOf(r.leave),
		"Value":       reflect.ValueOf(func(v any) { h.Value(v) }),
		"Rich":        reflect.ValueOf(func(mime, text string) { h.Rich(mime, text) }),
		"GoPanic":     reflect.ValueOf(func(p any) { h.GoPanic(p) }),
		"Clear":       reflect.ValueOf(clearValue),
		"ClosedChan":  reflect.ValueOf(closedChan),
		"Len":         reflect.ValueOf(makeLen),
		"Print":       reflect.ValueOf(func(a ...any) { h.Print(goPrint(a, false)) }),
		"Println":     reflect.ValueOf(func(a ...any) { h.Print(goPrint(a, true)) }),
		"Unwrap":      reflect.ValueOf(PlainValue),
	}
	if stop := r.stop.ptr(); stop != nil {
		syms["Stop"] = reflect.ValueOf(&stop).Elem()
	}
	for k, v := range r.deferSymbols() {
		syms[k] = v
	}
	tables := r.blockingSymbols()
	for k, v := range tables["rt"] {
		syms[k] = v
	}
	delete(tables, "rt")
	tables[path+"/rt"] = syms
	return tables
}

// clearValue implements the clear builtin for interpreted code: it deletes
// all entries of a map or zeroes the elements of a slice.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	case reflect.Invalid:
	default:
		panic(fmt.Sprintf("invalid argument: clear(%s): argument must be a map or slice", v.Type()))
	}
}

// closedChan sets the channel variable p points to to a new, closed
// channel of the same element type. Receiving from it gives the element
// type's zero value at once: the comma-ok receive bridge declares its value
// variable that way, without naming the type.
func closedChan(p any) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Chan {
		panic(fmt.Sprintf("rt: ClosedChan(%T): want a pointer to a channel variable", p))
	}
	c := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, v.Elem().Type().Elem()), 0)
	c.Close()
	v.Elem().Set(c)
}

// String is what a goroutine's report shows for runaway recursion.
func (d DepthSignal) String() string {
	return fmt.Sprintf("call depth exceeded %d interpreted calls (runaway recursion?); the goroutine was stopped", d.Depth-1)
}

// makeLen checks one size argument of make (pass make-guard) against the
// process's memory limit (debug.SetMemoryLimit, set by kernel/app from
// the machine's memory): an allocation past it would be a fatal error of
// Go's runtime, not a panic. typedNil is the made type's nil value; n is
// the size as written (any integer type). It returns n as an int.
func makeLen(typedNil any, n any) int {
	v := reflect.ValueOf(n)
	var size uint64
	switch {
	case v.CanInt():
		if v.Int() < 0 {
			return int(v.Int()) // make reports it
		}
		size = uint64(v.Int())
	case v.CanUint():
		size = v.Uint()
	default:
		panic(fmt.Sprintf("make: size %v (%T) is not an integer", n, n))
	}
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		return int(size)
	}
	elem := uint64(1)
	if t := reflect.TypeOf(typedNil); t != nil {
		switch t.Kind() {
		case reflect.Slice, reflect.Chan:
			elem = max(1, uint64(t.Elem().Size()))
		case reflect.Map:
			elem = max(1, uint64(t.Key().Size()+t.Elem().Size()))
		}
	}
	if size > uint64(limit)/elem {
		panic(memoryLimitError{elems: size, elem: elem, limit: limit})
	}
	return int(size)
}

// memoryLimitError is the panic of a make past the memory limit.
type memoryLimitError struct {
	elems, elem uint64
	limit       int64
}

func (e memoryLimitError) Error() string {
	return fmt.Sprintf("make of %d elements of %d bytes (%s) is more than the kernel's memory limit of %s: "+
		"the allocation was refused before it could end the kernel; make it smaller, or raise the limit "+
		"with TICK_MEMORY_LIMIT (for example TICK_MEMORY_LIMIT=32GiB) before starting the kernel",
		e.elems, e.elem, humanBytes(float64(e.elems)*float64(e.elem)), humanBytes(float64(e.limit)))
}

func humanBytes(b float64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB"} {
		if b < 1024 {
			return fmt.Sprintf("%.3g %s", b, u)
		}
		b /= 1024
	}
	return fmt.Sprintf("%.3g TiB", b)
}
