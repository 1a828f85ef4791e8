//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/internal/privdir"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/supervisor"
)

// newRunner returns the session.Runner of `tick kernel` and `tick run`:
// cells run in a `tick engine` child process the supervisor restarts when
// it dies (docs/architecture.md, "Processes"). close ends the engine.
func newRunner(f engineFlags, log io.Writer) (r session.Runner, close func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("finding the tick binary to start the engine: %w", err)
	}
	ceiling, err := memlimit.Discover()
	if err != nil {
		// The engine reports it in every cell (it reads the same variable).
		fmt.Fprintf(log, "tick: %v\n", err)
	}
	// The kernel's private temporary directory: what must not go to a
	// cache (a refused cache's fallback) goes here. It is made when first
	// needed and removed when the kernel ends; those of kernels killed
	// before they could remove theirs go now (internal/privdir).
	tmp, err := privdir.KernelTemp(os.Getpid())
	if err != nil {
		return nil, nil, fmt.Errorf("naming the kernel's temporary directory: %w", err)
	}
	go privdir.SweepKernelTemps()
	env := append(os.Environ(), privdir.TempEnv+"="+tmp)
	s := supervisor.New(supervisor.Config{
		Command: func() *exec.Cmd {
			cmd := exec.Command(self, f.engineArgs()...)
			cmd.Stdout = os.Stdout
			cmd.Env = env
			return cmd
		},
		Log:    log,
		Memory: ceiling,
	})
	return s, func() {
		s.Close()
		os.RemoveAll(tmp)
	}, nil
}
