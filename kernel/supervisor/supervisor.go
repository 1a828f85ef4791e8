// Package supervisor keeps the process that holds the Jupyter sockets
// apart from the process that runs user code.
//
// Go cannot recover from a fatal runtime error (concurrent map writes,
// stack exhaustion, the runtime out of memory, misuse of sync) inside the
// process that hit it. So `tick kernel` keeps the sockets, the heartbeat,
// iopub and the history, and runs the engine — the interpreter, the tensor
// runtime, compiled cells, the magics — in a child process (`tick engine`)
// that it talks to over two pipes. Runner is the session.Runner the kernel
// uses: it forwards each call to the engine and the engine's output back to
// the cell's Sink, in order. When the engine dies, the running cell ends
// with an error that quotes the fatal message and the goroutine that raised
// it and says that the session's variables were lost and why; a fresh
// engine runs the next cell. The front end sees no restart: the ports, the
// session and the execution count stay.
//
// The engine side is Serve. The protocol (proto.go) is private to this
// package: both ends are the same binary.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Config configures a Runner.
type Config struct {
	// Command returns a new, unstarted command that runs an engine: a
	// process that calls Serve with fd 3 as its input and fd 4 as its
	// output (`tick engine`). The Runner sets ExtraFiles, Stderr and the
	// process attributes.
	Command func() *exec.Cmd
	// Log receives the engines' stderr, line by line, and the
	// supervisor's diagnostics; nil discards them.
	Log io.Writer
	// Memory is the ceiling the engine must stay under: an engine whose
	// resident memory (plus swap) goes past Memory.Bytes is killed, and
	// the cell says so. Zero Bytes (or Off) watches nothing.
	Memory memlimit.Ceiling
	// MemorySystem is where the out-of-memory counters are read; the
	// zero value reads the host's.
	MemorySystem memlimit.System
}

// killAfterInterrupts: the engine is ended when a cell is still running
// after this many interrupts (the first stops it at a checkpoint, the
// second abandons what it waits for; a third that finds it running means
// the engine does not respond: code with no checkpoint, C, or the
// interpreter itself). The cell says so.
const killAfterInterrupts = 3

// Runner is a session.Runner whose cells run in an engine process.
type Runner struct {
	cfg    Config
	nextID atomic.Uint64

	mu       sync.Mutex
	cur      *engine       // the engine calls go to; nil until one started
	spawning bool          // a start is in progress
	started  chan struct{} // closed when the last start ended
	startErr error         // why the last start failed
	closed   bool
	between  *death // an engine that died while no cell ran, told with the next cell
}

// New returns a Runner and starts its first engine in the background.
func New(cfg Config) *Runner {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.MemorySystem.Root == "" {
		cfg.MemorySystem = memlimit.Host()
	}
	r := &Runner{cfg: cfg}
	r.mu.Lock()
	r.startLocked()
	r.mu.Unlock()
	return r
}

// startLocked starts an engine in the background unless a start is in
// progress; r.mu is held.
func (r *Runner) startLocked() {
	if r.spawning || r.closed {
		return
	}
	r.spawning, r.startErr = true, nil
	done := make(chan struct{})
	r.started = done
	go func() {
		e, err := r.spawn()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.spawning = false
		if e != nil {
			r.cur = e
			go r.watch(e)
			if r.closed {
				go e.stop()
			}
		}
		r.startErr = err
		close(done)
	}()
}

// maxStarts bounds the engines one call starts: an engine that dies as
// it starts is not started forever.
const maxStarts = 2

// engine returns the engine to call, waiting for a start in progress and
// starting one when the last died.
func (r *Runner) engine() (*engine, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for starts := 0; ; {
		if r.closed {
			return nil, errClosed
		}
		if r.cur != nil && !r.cur.isDead() {
			return r.cur, nil
		}
		if !r.spawning {
			if starts == maxStarts {
				return nil, errors.New("the engine ended as it started, twice")
			}
			starts++
			r.startLocked()
		}
		wait := r.started
		r.mu.Unlock()
		<-wait
		r.mu.Lock()
		if r.startErr != nil && !r.spawning {
			err := r.startErr
			r.startErr = nil
			return nil, err // the next call tries again
		}
	}
}

var errClosed = errors.New("the kernel is shutting down")

// watch waits for e to end; an engine that dies while no cell runs is
// reported with the next cell, and replaced at once.
func (r *Runner) watch(e *engine) {
	<-e.exited
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.cur != e {
		return
	}
	if !e.death.duringCell {
		r.between = e.death
	}
	r.startLocked()
}

// Execute runs the cell in the engine, streaming its output to sink.
func (r *Runner) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	e, err := r.engine()
	if err != nil {
		return session.Result{Err: cell.Errorf(cell.RuntimeError,
			"the Go engine could not start: %v; run the cell again, and if it fails again restart the kernel and report this with the kernel log", err)}
	}
	r.mu.Lock()
	if d := r.between; d != nil {
		r.between = nil
		r.mu.Unlock()
		sink.Stream("stderr", d.betweenCells())
	} else {
		r.mu.Unlock()
	}
	id := r.nextID.Add(1)
	call := e.begin(id, sink, c.Stdin, true)
	defer e.end(id)
	err = e.send(&request{Op: opExecute, ID: id, Code: c.Code, Count: c.Count, Stdin: c.Stdin != nil})
	if err != nil {
		e.kill("the pipe to it failed: " + err.Error())
	}
	cancelled := ctx.Done()
	for {
		select {
		case ev := <-call.done:
			return resultFromWire(ev.Result)
		case <-e.exited:
			select { // the result may have come just before the end
			case ev := <-call.done:
				return resultFromWire(ev.Result)
			default:
			}
			return session.Result{Err: e.death.cellError()}
		case <-cancelled:
			cancelled = nil
			r.Interrupt()
		}
	}
}

// ask sends a request and waits for its answer; ok is false when the
// engine ended first.
func (r *Runner) ask(req *request) (*event, bool) {
	e, err := r.engine()
	if err != nil {
		return nil, false
	}
	req.ID = r.nextID.Add(1)
	call := e.begin(req.ID, nil, nil, false)
	defer e.end(req.ID)
	if err := e.send(req); err != nil {
		return nil, false
	}
	select {
	case ev := <-call.done:
		return ev, true
	case <-e.exited:
		return nil, false
	}
}

// Complete asks the engine; an engine that dies answers with no matches.
func (r *Runner) Complete(code string, cursor int) session.Completion {
	if ev, ok := r.ask(&request{Op: opComplete, Code: code, Cursor: cursor}); ok && ev.Completion != nil {
		return *ev.Completion
	}
	return session.Completion{Start: cursor, End: cursor}
}

// Inspect asks the engine.
func (r *Runner) Inspect(code string, cursor, detail int) session.Inspection {
	if ev, ok := r.ask(&request{Op: opInspect, Code: code, Cursor: cursor, Detail: detail}); ok && ev.Inspection != nil {
		return *ev.Inspection
	}
	return session.Inspection{}
}

// IsComplete asks the engine.
func (r *Runner) IsComplete(code string) session.Completeness {
	if ev, ok := r.ask(&request{Op: opIsComplete, Code: code}); ok && ev.Completeness != nil {
		return *ev.Completeness
	}
	return session.Completeness{Status: "unknown"}
}

// Interrupt interrupts the running cell. An engine still running the same
// cell at the third interrupt is ended (killAfterInterrupts).
func (r *Runner) Interrupt() {
	r.mu.Lock()
	e := r.cur
	r.mu.Unlock()
	if e == nil || e.isDead() {
		return
	}
	if e.interrupt() >= killAfterInterrupts {
		e.kill(reasonUnresponsive)
	}
}

// Close ends the engine and waits for it (at most a few seconds); the
// Runner answers no more calls.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	started, spawning := r.started, r.spawning
	r.mu.Unlock()
	if spawning {
		select {
		case <-started:
		case <-time.After(5 * time.Second):
		}
	}
	r.mu.Lock()
	e := r.cur
	r.mu.Unlock()
	if e != nil {
		e.stop()
	}
}

// Pid returns the running engine's process ID, 0 when none runs.
func (r *Runner) Pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil || r.cur.isDead() {
		return 0
	}
	return r.cur.pid
}

// logf writes a diagnostic line to the log.
func (r *Runner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Log, "tick: "+format+"\n", args...)
}
