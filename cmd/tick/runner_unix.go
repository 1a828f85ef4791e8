//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/tick-kernel/tick/internal/memlimit"
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
	s := supervisor.New(supervisor.Config{
		Command: func() *exec.Cmd {
			cmd := exec.Command(self, f.engineArgs()...)
			cmd.Stdout = os.Stdout
			return cmd
		},
		Log:    log,
		Memory: ceiling,
	})
	return s, s.Close, nil
}
