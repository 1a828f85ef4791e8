package supervisor

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
)

// Why the supervisor ended an engine (death.killed).
const (
	reasonMemory       = "memory"
	reasonUnresponsive = "unresponsive"
	reasonShutdown     = "shutdown"
)

// Timeouts of an engine's life.
const (
	helloTimeout = 30 * time.Second       // from start to its first message
	drainTimeout = time.Second            // after it exits, for the rest of its output
	stopGrace    = 2 * time.Second        // after its input is closed, before it is killed
	pollBusy     = 50 * time.Millisecond  // memory readings while a call runs
	pollIdle     = 500 * time.Millisecond // and while none does
)

// engine is one engine process and the calls in flight to it.
type engine struct {
	r     *Runner
	cmd   *exec.Cmd
	pid   int
	born  time.Time
	input *os.File // the engine's fd 3, our end
	out   *encoder
	errs  *stderrScanner
	oom   int64 // the out-of-memory counters when it started

	peak, last atomic.Int64 // its memory use, bytes (resident + swap)

	mu         sync.Mutex
	calls      map[uint64]*call
	running    uint64 // the execute in progress, 0 when none
	interrupts int    // interrupts since it began
	killed     string // why the supervisor ended it, "" if it did not
	dead       bool

	exited chan struct{} // closed when it has ended and death is set
	death  *death
}

// call is one request in flight.
type call struct {
	sink  session.Sink
	stdin func(prompt string, password bool) (string, error)
	done  chan *event // its result
}

// spawn starts an engine and waits for its first message.
func (r *Runner) spawn() (*engine, error) {
	if r.cfg.Command == nil {
		return nil, errors.New("supervisor: no engine command configured")
	}
	cmd := r.cfg.Command()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("supervisor: pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("supervisor: pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("supervisor: pipe: %w", err)
	}
	cmd.ExtraFiles = []*os.File{inR, outW} // fd 3 and fd 4
	cmd.Stderr = errW
	setProcAttr(cmd)
	oom := r.cfg.MemorySystem.OOMKills()
	err = cmd.Start()
	closeAll(inR, outW, errW) // the engine's ends
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, fmt.Errorf("supervisor: starting the engine (%s): %w", cmd.Path, err)
	}
	e := &engine{r: r, cmd: cmd, pid: cmd.Process.Pid, born: time.Now(), input: inW, out: newEncoder(inW),
		errs: newStderrScanner(errR, r.cfg.Log), oom: oom, calls: map[uint64]*call{}, exited: make(chan struct{})}
	dec := gob.NewDecoder(bufio.NewReaderSize(outR, 64<<10))
	hello := make(chan error, 1)
	go func() {
		var ev event
		err := dec.Decode(&ev)
		if err == nil && ev.Op != opHello {
			err = fmt.Errorf("its first message is %d, not hello", ev.Op)
		}
		hello <- err
	}()
	select {
	case err = <-hello:
	case <-time.After(helloTimeout):
		err = fmt.Errorf("it did not answer within %v", helloTimeout)
	}
	if err != nil {
		killGroup(e.pid)
		_ = cmd.Wait()
		closeAll(inW, outR)
		<-e.errs.done
		rep := e.errs.Report()
		return nil, fmt.Errorf("supervisor: the engine (%s) did not start: %v; its last words: %q", cmd.Path, err, append(rep.Header, rep.Tail...))
	}
	go e.run(dec, outR)
	go e.watchMemory()
	return e, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// run reads the engine's messages until it ends, then records its death.
func (e *engine) run(dec *gob.Decoder, out *os.File) {
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			var ev event
			if err := dec.Decode(&ev); err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, io.ErrUnexpectedEOF) {
					e.r.logf("engine %d sent a malformed message (%v): ending it", e.pid, err)
				}
				return
			}
			e.dispatch(&ev)
		}
	}()
	waitDone := make(chan struct{})
	go func() {
		defer close(waitDone)
		_ = e.cmd.Wait()
	}()
	select {
	case <-waitDone:
		// Its last messages are in the pipe: read them, unless a process
		// it started holds the pipe open.
		select {
		case <-readDone:
		case <-time.After(drainTimeout):
		}
	case <-readDone:
		// It closed its output (or wrote garbage): it is ending, or
		// broken; either way it is ended.
		select {
		case <-waitDone:
		case <-time.After(drainTimeout):
			killGroup(e.pid)
			<-waitDone
		}
	}
	killGroup(e.pid) // what it started in its process group goes with it
	endShellJobs(e.pid)
	_ = out.Close()
	_ = e.input.Close()
	<-readDone
	select {
	case <-e.errs.done:
	case <-time.After(drainTimeout):
	}
	e.mu.Lock()
	e.dead = true
	running := e.running != 0
	killed := e.killed
	e.mu.Unlock()
	e.death = e.describe(running, killed)
	close(e.exited)
}

// dispatch routes one message to its call.
func (e *engine) dispatch(ev *event) {
	e.mu.Lock()
	c := e.calls[ev.ID]
	e.mu.Unlock()
	if c == nil {
		return // the call has returned: nobody asks for it any more
	}
	switch ev.Op {
	case opResult:
		select {
		case c.done <- ev:
		default:
		}
	case opStream:
		if c.sink != nil {
			c.sink.Stream(ev.Name, ev.Text)
		}
	case opPublish, opUpdate:
		if c.sink != nil && ev.Data != nil {
			if ev.Op == opPublish {
				c.sink.Publish(fromWire(ev.Data))
			} else {
				c.sink.Update(fromWire(ev.Data))
			}
		}
	case opClear:
		if c.sink != nil {
			c.sink.Clear(ev.Wait)
		}
	case opInputRequest:
		go e.answerInput(ev, c)
	}
}

// answerInput asks the front end for a line and sends the answer back.
func (e *engine) answerInput(ev *event, c *call) {
	ans := &request{Op: opInput, ID: ev.ID}
	if c.stdin == nil {
		ans.Err = "this execution does not accept input"
	} else if text, err := c.stdin(ev.Prompt, ev.Password); err != nil {
		ans.Err = err.Error()
	} else {
		ans.Text = text
	}
	_ = e.send(ans)
}

// begin registers a call; an execute becomes the running cell.
func (e *engine) begin(id uint64, sink session.Sink, stdin func(string, bool) (string, error), execute bool) *call {
	c := &call{sink: sink, stdin: stdin, done: make(chan *event, 1)}
	e.mu.Lock()
	e.calls[id] = c
	if execute {
		e.running, e.interrupts = id, 0
	}
	e.mu.Unlock()
	return c
}

// end forgets a call.
func (e *engine) end(id uint64) {
	e.mu.Lock()
	delete(e.calls, id)
	if e.running == id {
		e.running = 0
	}
	e.mu.Unlock()
}

func (e *engine) send(req *request) error { return e.out.send(req) }

func (e *engine) isDead() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dead
}

// interrupt forwards an interrupt and returns how many the running cell
// has had (0 when no cell runs).
func (e *engine) interrupt() int {
	e.mu.Lock()
	n := 0
	if e.running != 0 {
		e.interrupts++
		n = e.interrupts
	}
	e.mu.Unlock()
	_ = e.send(&request{Op: opInterrupt})
	return n
}

// kill ends the engine at once for reason (the first reason given is the
// one the cell reports).
func (e *engine) kill(reason string) {
	e.mu.Lock()
	if e.killed == "" {
		e.killed = reason
	}
	e.mu.Unlock()
	killGroup(e.pid)
}

// stop ends the engine politely: its input is closed, which makes it
// exit; after stopGrace it is killed.
func (e *engine) stop() {
	e.mu.Lock()
	if e.killed == "" {
		e.killed = reasonShutdown
	}
	e.mu.Unlock()
	_ = e.input.Close()
	select {
	case <-e.exited:
	case <-time.After(stopGrace):
		killGroup(e.pid)
		<-e.exited
	}
}

// watchMemory reads the engine's memory use until it ends, and kills it
// when it goes past the ceiling.
func (e *engine) watchMemory() {
	ceiling := e.r.cfg.Memory
	threshold := ceiling.Bytes
	if !ceiling.Explicit {
		threshold = int64(float64(threshold) * killShare)
	}
	for {
		e.mu.Lock()
		busy := len(e.calls) > 0
		e.mu.Unlock()
		wait := pollIdle
		if busy {
			wait = pollBusy
		}
		select {
		case <-e.exited:
			return
		case <-time.After(wait):
		}
		n, ok := memoryUse(e.pid)
		if !ok {
			continue
		}
		e.last.Store(n)
		if n > e.peak.Load() {
			e.peak.Store(n)
		}
		if !ceiling.Off && threshold > 0 && n > threshold {
			e.r.logf("engine %d uses %s, past the memory ceiling of %s: ending it", e.pid, human(n), ceiling)
			e.kill(reasonMemory)
			return
		}
	}
}

// killShare is the part of a discovered ceiling past which the supervisor
// ends the engine, before the system's OOM killer picks a process (the
// supervisor and the page cache share the limit). An explicit
// TICK_MEMORY_LIMIT is used as it is.
const killShare = 0.95
