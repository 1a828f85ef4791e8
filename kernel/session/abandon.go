package session

import (
	"bytes"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rt"
)

// Most blocked cells end at the first interrupt (blocking.go). What still
// blocks — a receive inside an expression, a range over a channel nobody
// closes, native code waiting — is abandoned at the second interrupt: the
// interpreter runs each piece of a cell on a goroutine of its own, and the
// cell stops waiting for it. The cell ends with an error that says what the
// goroutine is blocked in; every variable is kept and the kernel answers
// again. The blocked goroutine stays blocked (Go cannot stop a goroutine
// from outside): if what it waits for happens, the rest of that cell runs
// in the background.

// abandonGrace is how long the second interrupt waits for the cell to end
// by itself before abandoning it.
const abandonGrace = 100 * time.Millisecond

// runProgram runs prog on its own goroutine and returns its error, or
// abandons it at the second interrupt.
func (vm *vm) runProgram(c cell.Cell, prog *interp.Program) *Error {
	done := make(chan *Error, 1)
	gid := make(chan uint64, 1)
	vm.rt.Go(func() { // a piece: runaway recursion ends it with Goexit (rt/depth.go)
		gid <- rt.GoroutineID()
		returned := false
		defer func() {
			if returned {
				return
			}
			if sig, ok := vm.rt.TakeEnded(); ok {
				done <- vm.depthError(c, sig)
				return
			}
			// runtime.Goexit in the cell: it ends this goroutine, not the session
			done <- cell.Errorf(cell.RuntimeError, "the cell called runtime.Goexit, which ends the goroutine running it: "+
				"the cell stopped there; variables defined before it are kept and the kernel goes on (return from the cell instead)")
		}()
		e := vm.executeHere(c, prog)
		returned = true
		done <- e
	})
	id := <-gid
	select {
	case e := <-done:
		return e
	case <-vm.rt.Abandoned():
	}
	select {
	case e := <-done:
		return e
	case <-time.After(abandonGrace):
	}
	return abandonedError(c, blockedIn(id))
}

// executeHere runs prog on the calling goroutine.
func (vm *vm) executeHere(c cell.Cell, prog *interp.Program) (e *Error) {
	defer func() {
		if r := recover(); r != nil {
			vm.wrapperFrames()
			vm.rt.NotePanic(r)
			e = vm.panicError(c, interp.Panic{Value: r})
		}
	}()
	_, err := vm.ip.Execute(prog)
	if err == nil {
		return nil
	}
	if p, ok := err.(interp.Panic); ok {
		vm.wrapperFrames()
		vm.rt.NotePanic(p.Value)
		return vm.panicError(c, p)
	}
	return diagnose.CompileError(c, err)
}

func abandonedError(c cell.Cell, what string) *Error {
	return cell.Errorf(cell.Interrupted, "cell[%d] is blocked in %s and did not stop at the interrupt: "+
		"tick stopped waiting for it, and everything defined before is kept. The blocked code stays in the background "+
		"(if what it waits for happens, the rest of the cell runs then); restart the kernel to end it. "+
		"To make such a wait interruptible, receive in a statement (v := <-ch) or use select", c.N, what)
}

var goroutineHeader = regexp.MustCompile(`^goroutine (\d+) \[([^\]]*)\]`)

// blockedIn describes what goroutine id waits in: its wait reason and the
// innermost function that is neither the Go runtime's nor the
// interpreter's ("chan receive, in reflect.Select").
func blockedIn(id uint64) string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		m := goroutineHeader.FindSubmatch(g)
		if m == nil || string(m[1]) != strconv.FormatUint(id, 10) {
			continue
		}
		reason := strings.SplitN(string(m[2]), ",", 2)[0]
		lines := strings.Split(string(g), "\n")
		for i := 1; i+1 < len(lines); i += 2 {
			fn := lines[i]
			if p := strings.LastIndex(fn, "("); p > 0 {
				fn = fn[:p]
			}
			if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/") || strings.HasPrefix(fn, "sync.runtime_") ||
				strings.HasPrefix(fn, "reflect.") {
				continue
			}
			if strings.Contains(fn, "traefik/yaegi") {
				break
			}
			return fmt.Sprintf("%s (waiting in %s)", describeWait(reason), fn)
		}
		return describeWait(reason)
	}
	return "an operation that cannot be interrupted"
}

// describeWait turns the Go runtime's wait reason into words.
func describeWait(reason string) string {
	switch {
	case strings.HasPrefix(reason, "chan receive"):
		return "a channel receive inside an expression or a range over a channel"
	case strings.HasPrefix(reason, "chan send"):
		return "a channel send"
	case strings.HasPrefix(reason, "select"):
		return "a channel operation"
	case strings.Contains(reason, "sync") || reason == "semacquire":
		return "a lock or a WaitGroup of native code"
	case reason == "IO wait":
		return "input/output"
	}
	return "an operation that cannot be interrupted (" + reason + ")"
}
