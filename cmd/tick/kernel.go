package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

func init() {
	register(&command{name: "kernel", usage: "CONNECTION_FILE",
		summary: "run the Jupyter kernel (Jupyter starts this through kernel.json)", run: runKernel})
}

func runKernel(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: tick kernel CONNECTION_FILE (Jupyter passes the file; run `tick install` so it can)")
	}
	ci, err := kernel.ReadConnectionFile(args[0])
	if err != nil {
		return err
	}
	// Build the session while the sockets bind: clients connect right after
	// starting the process, and kernel_info needs no interpreter.
	runner := kernel.LazyRunner(func() (session.Runner, error) {
		// Output of goroutines that outlive their cell is kept and shown
		// with the next cell (the session's default), not lost in the log.
		r, err := app.New(session.Options{})
		if err != nil {
			return nil, err // not a nil *magic.Runner in a non-nil interface
		}
		return r, nil
	})
	k := kernel.New(kernel.Config{Conn: ci, Runner: runner, Log: stderr, Info: kernel.Info{Version: versionString()}})

	// Catch signals before binding: jupyter_client sends SIGINT before every
	// shutdown, and a Go program exits on it by default.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	if err := k.Start(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "tick: kernel %s ready (shell port %d), %d ms after process start\n",
		versionString(), k.Port("shell"), time.Since(processStart).Milliseconds())
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM {
				fmt.Fprintln(stderr, "tick: SIGTERM, shutting down")
				k.Stop()
				return
			}
			k.Interrupt() // SIGINT interrupts the running cell; it never exits.
		}
	}()
	k.Wait()
	return nil
}
