// Package app is tick's composition root: it builds the production
// session, the Go engine (kernel/session) with the magics (kernel/magic)
// and the tensor runtime reporting to it, and compiled Go (kernel/gocompile:
// imports of any module, %%go cells). `tick kernel`, `tick run` and the
// tests start their sessions here, so a notebook behaves the same in
// Jupyter, headless and under test.
package app

import (
	"errors"
	"fmt"
	"os"

	"github.com/tick-kernel/tick/internal/privdir"
	"github.com/tick-kernel/tick/kernel/gocompile"
	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/magic/compiled"
	"github.com/tick-kernel/tick/kernel/magic/profiling"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/runtime/tensor"
)

// DumpRewritesEnv names the environment variable that, when set to a
// non-empty value, makes sessions write the Go source of every cell after
// each rewrite pass to the process's stderr (the kernel log, or the
// terminal of `tick run`).
const DumpRewritesEnv = "TICK_DUMP_REWRITES"

// errInterruptedWait is what a device wait returns when the user interrupts
// the cell while it waits.
var errInterruptedWait = errors.New("interrupted while waiting for the device")

// New starts a notebook session with everything tick offers cells: the
// interpreter, tick's packages, the magics. The tensor runtime is
// process-wide and a tick process serves one session, so New also points
// the runtime at this session: its DEBUG lines go to the running cell, and
// an interrupt ends a long Synchronize as it ends a loop.
func New(opts session.Options) (*magic.Runner, error) {
	if opts.RewriteDump == nil && os.Getenv(DumpRewritesEnv) != "" {
		opts.RewriteDump = os.Stderr
	}
	if _, _, err := SetMemoryLimit(); err != nil {
		return nil, err
	}
	goc := compiled.New(gocompile.New(gocompile.Config{}))
	if opts.Importer == nil {
		opts.Importer = goc
	}
	engine, err := session.New(opts)
	if err != nil {
		return nil, err
	}
	r, err := magic.NewRunner(engine, append(append(magic.Magics(), profiling.Magics()...), goc.Magics()...)...)
	if err != nil {
		return nil, fmt.Errorf("app: registering the magics: %w", err)
	}
	tensor.SetDebugWriter(engine.Stdout())
	// A cache directory refused (another user could write it) is said in
	// the running cell, or the next one (internal/privdir).
	privdir.SetReporter(func(err error) { fmt.Fprintf(engine.Stderr(), "tick: %v\n", err) })
	tensor.SetWaitHook(func() error {
		if engine.Interrupted() {
			return errInterruptedWait
		}
		return nil
	})
	return r, nil
}
