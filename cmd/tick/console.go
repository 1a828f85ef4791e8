package main

import (
	"context"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
)

// Ctrl-C in jupyter console (Debian's 6.4.4 and others of its time) never
// reaches the kernel: the console's SIGINT handler, which would interrupt
// the kernel, is replaced by prompt_toolkit's and then by Python's default
// after the first prompt, so Ctrl-C during a cell raises KeyboardInterrupt
// in the console itself ("KeyboardInterrupt escaped interact()"), which
// goes back to its prompt with the cell still running; the kernel, in a
// session of its own, gets no signal, and the next cell waits behind it.
// (ipykernel keeps spinning the same way.)
//
// What the kernel can see is the console going back to its prompt while
// its cell runs: the console is the kernel's parent, in the foreground of
// the terminal the kernel's stderr is, and prompt_toolkit puts that
// terminal in raw mode (no ICANON, no ISIG) to read a line, while a cell
// runs it is in cooked mode. consoleWatch interrupts the running cell when
// the terminal goes raw during it — only then: a front end that takes its
// terminal back for input has stopped waiting for the cell.

// consoleRunner interrupts a cell when the console that started the
// kernel goes back to its prompt.
type consoleRunner struct {
	session.Runner
	term      *consoleTerm
	interrupt func()
}

// watchConsole returns r, watching the console when the kernel has one
// (consoleTerm); interrupt is the kernel's (it also ends a pending input).
func watchConsole(r session.Runner, interrupt func()) session.Runner {
	t := findConsoleTerm()
	if t == nil {
		return r
	}
	return &consoleRunner{Runner: r, term: t, interrupt: interrupt}
}

// consolePoll is how often the terminal's mode is read while a cell runs.
const consolePoll = 100 * time.Millisecond

func (c *consoleRunner) Execute(ctx context.Context, cell session.Cell, sink session.Sink) session.Result {
	done := make(chan struct{})
	defer close(done)
	if c.term.prompting() {
		return c.Runner.Execute(ctx, cell, sink) // not run from the console's prompt: nothing to watch
	}
	go func() {
		t := time.NewTicker(consolePoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if c.term.prompting() {
					c.interrupt()
					return
				}
			}
		}
	}()
	return c.Runner.Execute(ctx, cell, sink)
}
