package main

import (
	"context"
	"time"

	"github.com/tick-kernel/tick/kernel"
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
// runs it is in cooked mode. consoleRunner interrupts the running cell when
// the terminal goes raw during it: a console that takes its terminal back
// for a new line has stopped waiting for its cell.
//
// It must never interrupt a cell nobody stopped, so every one of these
// holds before it does:
//   - the kernel's parent (JPY_PARENT_PID) is jupyter console, by its
//     command line: not IPython or a script driving jupyter_client, not a
//     notebook server, nbclient, JupyterHub or euporie started from a
//     terminal (their prompts have nothing to do with a cell);
//   - the kernel's stderr is the console's controlling terminal;
//   - the cell was asked for by the console's own client session (the
//     first to speak to the kernel): a cell of a client that attached
//     later (jupyter console --existing, a notebook) runs while the
//     console sits idle at its prompt, or just returns to it;
//   - the terminal was cooked, with the console in its foreground, when
//     the cell started (the console was waiting for it), and then the
//     console is in the foreground with the terminal raw (not ISIG: a
//     readline input() for an input_request keeps ISIG). A suspended
//     console (Ctrl-Z) is not in the foreground.

// consoleRunner interrupts a cell when the console that started the
// kernel goes back to its prompt.
type consoleRunner struct {
	session.Runner
	term      *consoleTerm
	interrupt func()
}

// watchConsole returns r, watching the console when jupyter console
// started the kernel (findConsoleTerm); interrupt is the kernel's (it also
// ends a pending input).
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
	if !kernel.FromFirstClient(ctx) || c.term.prompting() {
		// another client's cell, or the console is not waiting for it
		return c.Runner.Execute(ctx, cell, sink)
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
