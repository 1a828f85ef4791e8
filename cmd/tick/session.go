package main

import (
	"errors"
	"fmt"

	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/runtime/tensor"
)

// errInterruptedWait is what a device wait returns when the user interrupts
// the cell while it waits.
var errInterruptedWait = errors.New("interrupted while waiting for the device")

// newSession starts a notebook session with everything tick offers cells:
// the interpreter, tick's packages and the timing magics. `tick kernel` and
// `tick run` both start sessions here so a notebook behaves the same in
// Jupyter and headless.
func newSession(opts session.Options) (*session.Session, error) {
	s, err := session.New(opts)
	if err != nil {
		return nil, err
	}
	if err := magic.Register(s); err != nil {
		return nil, fmt.Errorf("registering the magics: %w", err)
	}
	// The runtime is process-wide and a tick process serves one session:
	// its DEBUG lines go to the running cell, and an interrupt ends a
	// long Synchronize as it ends a loop.
	tensor.SetDebugWriter(s.Stdout())
	tensor.SetWaitHook(func() error {
		if s.Interrupted() {
			return errInterruptedWait
		}
		return nil
	})
	return s, nil
}
