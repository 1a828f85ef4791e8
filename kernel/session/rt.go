package session

import (
	"fmt"
	"reflect"
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

func (rt *runtime) enter() {
	if rt.stop.load() {
		panic(interruptSignal{})
	}
	if d := rt.depth.Add(1); d > rt.maxDepth {
		rt.depth.Add(-1)
		panic(depthSignal{d})
	}
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
