package kernel

import (
	"context"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// lazyRunner is a session.Runner built in the background, so the kernel
// can bind its sockets (and answer kernel_info) while the interpreter
// starts. Every method waits for the build.
type lazyRunner struct {
	ready chan struct{}
	r     session.Runner
	err   error
}

// LazyRunner starts build on a new goroutine and returns a Runner whose
// methods wait for it. If build fails, cells fail with its error.
func LazyRunner(build func() (session.Runner, error)) session.Runner {
	l := &lazyRunner{ready: make(chan struct{})}
	go func() {
		defer close(l.ready)
		l.r, l.err = build()
	}()
	return l
}

func (l *lazyRunner) get() (session.Runner, error) {
	<-l.ready
	return l.r, l.err
}

func (l *lazyRunner) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	r, err := l.get()
	if err != nil {
		return session.Result{Err: cell.Errorf(cell.RuntimeError, "the Go session could not start: %w; restart the kernel, and report this with the kernel log if it persists", err)}
	}
	return r.Execute(ctx, c, sink)
}

func (l *lazyRunner) Complete(code string, cursor int) session.Completion {
	if r, err := l.get(); err == nil {
		return r.Complete(code, cursor)
	}
	return session.Completion{Start: cursor, End: cursor}
}

func (l *lazyRunner) Inspect(code string, cursor, detail int) session.Inspection {
	if r, err := l.get(); err == nil {
		return r.Inspect(code, cursor, detail)
	}
	return session.Inspection{}
}

func (l *lazyRunner) IsComplete(code string) session.Completeness {
	if r, err := l.get(); err == nil {
		return r.IsComplete(code)
	}
	return session.Completeness{Status: "unknown"}
}

// Interrupt interrupts the session if it has started; before that there
// is no cell to stop.
func (l *lazyRunner) Interrupt() {
	select {
	case <-l.ready:
		if l.r != nil {
			l.r.Interrupt()
		}
	default:
	}
}
