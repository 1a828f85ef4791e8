package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tick-kernel/tick/kernel"
)

func init() {
	register(&command{name: "kernel", usage: "[--verbose] CONNECTION_FILE",
		summary: "run the Jupyter kernel (Jupyter starts this through kernel.json)", run: runKernel})
}

func runKernel(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("tick kernel", flag.ContinueOnError)
	fl.SetOutput(stderr)
	verbose := fl.Bool("verbose", os.Getenv("TICK_VERBOSE") != "", "log start-up and shutdown on stderr (also: TICK_VERBOSE=1, e.g. tick install --env TICK_VERBOSE=1)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: tick kernel [--verbose] CONNECTION_FILE (Jupyter passes the file; run `tick install` so it can)")
	}
	ci, err := kernel.ReadConnectionFile(fl.Arg(0))
	if err != nil {
		return err
	}
	// The engine (interpreter, runtime, magics) runs in a child process
	// this one supervises; it starts while the sockets bind: clients
	// connect right after starting the process, and kernel_info needs no
	// interpreter.
	runner, closeRunner, err := newRunner(engineFlags{}, stderr)
	if err != nil {
		return err
	}
	defer closeRunner()
	var k *kernel.Kernel
	// Ctrl-C in jupyter console never reaches the kernel (console.go):
	// the console going back to its prompt during a cell interrupts it.
	runner = watchConsole(runner, func() { k.Interrupt() })
	k = kernel.New(kernel.Config{Conn: ci, Runner: runner, Log: stderr, Info: kernel.Info{Version: versionString()}})

	// Catch signals before binding: jupyter_client sends SIGINT before every
	// shutdown, and a Go program exits on it by default.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	if err := k.Start(); err != nil {
		return err
	}
	// Quiet by default: jupyter console shows the kernel's stderr in the
	// user's terminal.
	if *verbose {
		fmt.Fprintf(stderr, "tick: kernel %s ready (shell port %d), %d ms after process start\n",
			versionString(), k.Port("shell"), time.Since(processStart).Milliseconds())
	}
	// A kernel outlives nothing that started it: when the front end dies
	// (its terminal closed, the notebook server killed), the kernel and
	// its engine end too.
	watchParent(func(why string) {
		fmt.Fprintf(stderr, "tick: %s: shutting the kernel down\n", why)
		k.Stop()
	})
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM {
				if *verbose {
					fmt.Fprintln(stderr, "tick: SIGTERM, shutting down")
				}
				k.Stop()
				return
			}
			k.Interrupt() // SIGINT interrupts the running cell; it never exits.
		}
	}()
	k.Wait()
	return nil
}
