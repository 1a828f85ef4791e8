package session

import (
	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// runDeferred calls the cell's deferred functions (package rt keeps
// them), last first, and returns the cell's result: without the error when
// a deferred function recovered the panic, with a deferred function's own
// panic when it panicked.
func (s *Session) runDeferred(c cell.Cell, res Result) Result {
	fns := s.rt.Deferred()
	if len(fns) == 0 {
		s.rt.ResetDefers()
		return res
	}
	// an interrupt has done its work; the deferred calls run (a new
	// interrupt stops them)
	s.rt.ClearStop()
	for i := len(fns) - 1; i >= 0; i-- {
		if e := s.callDeferred(c, fns[i]); e != nil {
			res = Result{Err: e}
		}
	}
	if s.rt.Recovered() && res.Err != nil && res.Err.Name != cell.Interrupted {
		res = Result{}
	}
	s.rt.ResetDefers()
	return res
}

func (s *Session) callDeferred(c cell.Cell, f func()) (e *Error) {
	defer func() {
		if r := recover(); r != nil {
			s.rt.NotePanic(r)
			e = s.vm.panicError(c, interp.Panic{Value: r})
		}
	}()
	f()
	return nil
}
