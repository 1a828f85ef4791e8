package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/supervisor"
)

func init() {
	register(&command{name: "engine", hidden: true, usage: "[--arg ARG] [--background-stderr]",
		summary: "run the Go engine for a supervising `tick kernel` or `tick run` (internal: fd 3 and 4 are its pipes)",
		run:     runEngine})
}

// engineFlags are the session options a supervisor passes to its engine.
type engineFlags struct {
	args       multiFlag
	background bool
}

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// engineArgs is how a supervisor asks for f.
func (f engineFlags) engineArgs() []string {
	out := []string{"engine"}
	for _, a := range f.args {
		out = append(out, "--arg", a)
	}
	if f.background {
		out = append(out, "--background-stderr")
	}
	return out
}

// runEngine is `tick engine`: the process that runs cells for a
// supervisor (package kernel/supervisor), reading requests on fd 3 and
// writing events on fd 4 until fd 3 closes.
func runEngine(args []string, stdout, stderr io.Writer) error {
	var f engineFlags
	fl := flag.NewFlagSet("tick engine", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Var(&f.args, "arg", "an element of os.Args as cells see it (repeat)")
	fl.BoolVar(&f.background, "background-stderr", false, "write output of goroutines that outlive their cell to stderr")
	if err := fl.Parse(args); err != nil {
		return err
	}
	in, out, err := enginePipes()
	if err != nil {
		return fmt.Errorf("%w (tick engine is started by tick kernel and tick run, not by hand)", err)
	}
	preferAsOOMVictim()
	// The engine's stdout is the kernel's: what compiled code prints goes
	// to the running cell instead.
	opts := session.Options{ProcessStreams: true}
	if len(f.args) > 0 {
		opts.Args = f.args
	}
	if f.background {
		opts.Background = stderr
	}
	runner := kernel.LazyRunner(func() (session.Runner, error) {
		r, err := app.New(opts)
		if err != nil {
			return nil, err // not a nil *magic.Runner in a non-nil interface
		}
		return r, nil
	})
	// The engine has a process group of its own; a SIGINT sent to it
	// anyway (kill -INT) interrupts the cell, as it did the kernel.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		for range sigs {
			runner.Interrupt()
		}
	}()
	return supervisor.Serve(kernel.ReleasingRunner(runner), in, out)
}
