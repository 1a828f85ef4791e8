package main

import (
	"fmt"

	"tick/kernel/magic"
	"tick/kernel/session"
)

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
	return s, nil
}
