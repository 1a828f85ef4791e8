package session

import (
	"fmt"
	"math"
	"reflect"
	goruntime "runtime"
	"runtime/debug"
	"sync/atomic"
)

// rtPath is the import path of the per-session runtime package that
// rewritten cells call (checkpoints, goroutine guards, cell values). It is
// bound under rewrite.Runtime, a name user code will not collide with.
const rtPath = "tick/kernel/session/rt"

// defaultMaxDepth bounds interpreted call depth: deeper recursion is
// reported as an error instead of overflowing the Go stack (which kills the
// process). Unwinding a panic through yaegi costs time quadratic in the
// depth (each interpreted frame recovers and re-panics): 5,000 frames
// unwind in about 2 s here, 20,000 in about 30 s.
const defaultMaxDepth = 5000

// interruptSignal is the sentinel panic value of an interrupt checkpoint.
type interruptSignal struct{}

// depthSignal is the sentinel panic value of runaway recursion.
type depthSignal struct{ depth int64 }

// runtime is what rewritten cell code sees as package ᐩrt. Its interrupt
// flag is read by the loop checkpoints (stopflag.go).
type runtime struct {
	stop     stopFlag
	depth    atomic.Int64
	maxDepth int64
	value    func(v any)
	rich     func(mime, text string)
	goPan    func(r any)
}

func (rt *runtime) interrupted() {
	if rt.stop.load() {
		panic(interruptSignal{})
	}
}

// enter is every interpreted function's entry: its interrupt checkpoint
// and its count of the call depth.
//
// The depth limit is per goroutine (Go has no goroutine-local counter):
// rt.depth counts the interpreted calls in flight on all the session's
// goroutines, a cheap bound that is exceeded first; only then does enter
// ask whether the calling goroutine's own stack is that deep, by asking
// runtime.Callers to skip the Go frames maxDepth interpreted calls make
// at least (framesPerCall each). Thousands of goroutines each a few calls
// deep are therefore not "runaway recursion"; one goroutine maxDepth
// calls deep is.
func (rt *runtime) enter() {
	if rt.stop.load() {
		panic(interruptSignal{})
	}
	if d := rt.depth.Add(1); d > rt.maxDepth && deepStack(rt.maxDepth) {
		rt.depth.Add(-1)
		panic(depthSignal{rt.maxDepth + 1})
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
	return goruntime.Callers(int(maxDepth)*framesPerCall, pc[:]) > 0
}

func (rt *runtime) leave() { rt.depth.Add(-1) }

// exports returns the yaegi symbol table of package ᐩrt.
func (rt *runtime) exports() map[string]map[string]reflect.Value {
	syms := map[string]reflect.Value{
		"Interrupted": reflect.ValueOf(rt.interrupted),
		"Enter":       reflect.ValueOf(rt.enter),
		"Leave":       reflect.ValueOf(rt.leave),
		"Value":       reflect.ValueOf(func(v any) { rt.value(v) }),
		"Rich":        reflect.ValueOf(func(mime, text string) { rt.rich(mime, text) }),
		"GoPanic":     reflect.ValueOf(func(r any) { rt.goPan(r) }),
		"Clear":       reflect.ValueOf(clearValue),
		"ClosedChan":  reflect.ValueOf(closedChan),
		"Len":         reflect.ValueOf(makeLen),
	}
	if stop := rt.stop.ptr(); stop != nil {
		syms["Stop"] = reflect.ValueOf(&stop).Elem()
	}
	return map[string]map[string]reflect.Value{rtPath + "/rt": syms}
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
		panic(fmt.Sprintf("session: ClosedChan(%T): want a pointer to a channel variable", p))
	}
	c := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, v.Elem().Type().Elem()), 0)
	c.Close()
	v.Elem().Set(c)
}

// String is what a goroutine's report shows for runaway recursion.
func (d depthSignal) String() string {
	return fmt.Sprintf("call depth exceeded %d interpreted calls (runaway recursion?); the goroutine was stopped", d.depth-1)
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
