//go:build !unix

package main

import (
	"io"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// newRunner runs cells in this process where there is no engine process
// (Windows): a fatal runtime error there ends the kernel.
func newRunner(f engineFlags, log io.Writer) (session.Runner, func(), error) {
	opts := session.Options{Args: f.args}
	if f.background {
		opts.Background = log
	}
	r := kernel.LazyRunner(func() (session.Runner, error) {
		r, err := app.New(opts)
		if err != nil {
			return nil, err
		}
		return r, nil
	})
	return r, func() {}, nil
}
