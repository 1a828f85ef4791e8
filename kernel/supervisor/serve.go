package supervisor

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Serve is the engine's side of the pipes: it reads requests from in and
// answers on out, running cells with r, until in ends (the supervisor
// closed it or died). Cells run one at a time, as the supervisor sends
// them; completion and inspection run beside a cell; an interrupt reaches
// the runner at once, whatever the cell is doing.
func Serve(r session.Runner, in io.Reader, out io.Writer) error {
	s := &server{r: r, out: newEncoder(out), inputs: map[uint64]chan inputAnswer{}}
	if err := s.out.send(&event{Op: opHello, Pid: os.Getpid()}); err != nil {
		return fmt.Errorf("supervisor: engine: saying hello: %w", err)
	}
	dec := gob.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed) {
				return nil
			}
			return fmt.Errorf("supervisor: engine: reading a request: %w", err)
		}
		s.handle(&req)
	}
}

type inputAnswer struct {
	text string
	err  error
}

type server struct {
	r   session.Runner
	out *encoder

	mu     sync.Mutex
	inputs map[uint64]chan inputAnswer // executes waiting for a line of input
}

func (s *server) send(ev *event) {
	// A write fails only when the supervisor is gone; reading the next
	// request then ends Serve.
	_ = s.out.send(ev)
}

func (s *server) handle(req *request) {
	switch req.Op {
	case opExecute:
		go s.execute(req)
	case opComplete:
		go func() {
			c := s.r.Complete(req.Code, req.Cursor)
			s.send(&event{Op: opResult, ID: req.ID, Completion: &c})
		}()
	case opInspect:
		go func() {
			in := s.r.Inspect(req.Code, req.Cursor, req.Detail)
			s.send(&event{Op: opResult, ID: req.ID, Inspection: &in})
		}()
	case opIsComplete:
		go func() {
			c := s.r.IsComplete(req.Code)
			s.send(&event{Op: opResult, ID: req.ID, Completeness: &c})
		}()
	case opInterrupt:
		s.r.Interrupt()
	case opInput:
		s.mu.Lock()
		ch := s.inputs[req.ID]
		s.mu.Unlock()
		if ch != nil {
			a := inputAnswer{text: req.Text}
			if req.Err != "" {
				a.err = errors.New(req.Err)
			}
			select {
			case ch <- a:
			default:
			}
		}
	}
}

func (s *server) execute(req *request) {
	c := session.Cell{Code: req.Code, Count: req.Count}
	if req.Stdin {
		ch := make(chan inputAnswer, 1)
		s.mu.Lock()
		s.inputs[req.ID] = ch
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.inputs, req.ID)
			s.mu.Unlock()
		}()
		c.Stdin = func(prompt string, password bool) (string, error) {
			select { // a stale answer from an earlier prompt
			case <-ch:
			default:
			}
			s.send(&event{Op: opInputRequest, ID: req.ID, Prompt: prompt, Password: password})
			a := <-ch
			return a.text, a.err
		}
	}
	// The result is sent even when the runner does not return: code that
	// calls runtime.Goexit on this goroutine (through a magic) ends it.
	returned := false
	defer func() {
		if !returned {
			res := session.Result{Err: cell.Errorf(cell.RuntimeError, "the cell called runtime.Goexit, which ended the goroutine running it: "+
				"the cell stopped there; variables defined before it are kept (return from the cell instead)")}
			s.send(&event{Op: opResult, ID: req.ID, Result: resultToWire(res)})
		}
	}()
	res := s.r.Execute(context.Background(), c, &pipeSink{s: s, id: req.ID})
	returned = true
	s.send(&event{Op: opResult, ID: req.ID, Result: resultToWire(res)})
}

// pipeSink sends a cell's output to the supervisor as it comes.
type pipeSink struct {
	s  *server
	id uint64
}

func (p *pipeSink) Publish(d display.Data) {
	p.s.send(&event{Op: opPublish, ID: p.id, Data: toWire(d)})
}

func (p *pipeSink) Update(d display.Data) {
	p.s.send(&event{Op: opUpdate, ID: p.id, Data: toWire(d)})
}

func (p *pipeSink) Clear(wait bool) { p.s.send(&event{Op: opClear, ID: p.id, Wait: wait}) }

func (p *pipeSink) Stream(name, text string) {
	p.s.send(&event{Op: opStream, ID: p.id, Name: name, Text: text})
}
