package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/notebook"
	"github.com/tick-kernel/tick/notebooks"
	"github.com/tick-kernel/tick/runtime/native"
)

const warmUsage = `usage: tick warm

Runs the tutorial notebooks built into tick (the ones in notebooks/ of its
source) headless, outputs discarded, so that the C kernels they use are
compiled into the disk cache now: the first %timeit or %prof of a tutorial
then loads its kernels in milliseconds instead of waiting for the C
compiler. Cells that fail (a busy machine can break a notebook's timing
assertions) are reported and skipped; what they compiled stays cached.
It takes about as long as running the notebooks.
`

func init() {
	register(&command{name: "warm", usage: "", summary: "compile the tutorial notebooks' C kernels into the disk cache ahead of use",
		run: func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
					_, _ = io.WriteString(stdout, warmUsage)
					return nil
				}
				_, _ = io.WriteString(stderr, warmUsage)
				return exitStatus(2)
			}
			return warm(stdout)
		}})
}

// warm runs each embedded tutorial notebook in a session of its own and
// says what it compiled.
func warm(w io.Writer) error {
	names, err := fs.Glob(notebooks.Files, "*.ipynb")
	if err != nil || len(names) == 0 {
		return fmt.Errorf("warm: no tutorial notebooks built in (%v)", err)
	}
	cc, err := native.Default()
	if err != nil {
		return fmt.Errorf("warm: nothing to compile ahead: %w", err)
	}
	fmt.Fprintf(w, "warm: compiling the C kernels of %d tutorial notebooks into %s by running them\n", len(names), cc.CacheDir())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start, before := time.Now(), cc.Stats()
	for _, name := range names {
		b, err := notebooks.Files.ReadFile(name)
		if err != nil {
			return fmt.Errorf("warm: %w", err)
		}
		nb, err := notebook.Read(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("warm: %s: %w", name, err)
		}
		sess, err := app.New(session.Options{Background: io.Discard})
		if err != nil {
			return fmt.Errorf("warm: starting the Go session: %w", err)
		}
		t0, c0 := time.Now(), cc.Stats()
		failed := 0
		err = notebook.Execute(ctx, nb, sess, notebook.Options{AllowErrors: true, Timeout: 5 * time.Minute,
			Progress: func(p notebook.Progress) {
				if p.Err != nil {
					failed++
				}
			}})
		c1 := cc.Stats()
		line := fmt.Sprintf("warm: %-38s %6.1f s  %3d kernels compiled (%.1f s of cc), %3d were cached", name,
			time.Since(t0).Seconds(), c1.Compiles-c0.Compiles, (c1.CompileTime - c0.CompileTime).Seconds(), c1.DiskHits-c0.DiskHits)
		if failed > 0 {
			line += fmt.Sprintf(" (%d cells failed; their kernels up to the failure are cached)", failed)
		}
		fmt.Fprintln(w, line)
		if err != nil { // interrupted or a cell that could not be stopped
			return fmt.Errorf("warm: %s: %w", name, err)
		}
	}
	after := cc.Stats()
	fmt.Fprintf(w, "warm: %d notebooks in %.1f s: %d kernels compiled into the disk cache (%.1f s of cc), %d were there already\n",
		len(names), time.Since(start).Seconds(), after.Compiles-before.Compiles, (after.CompileTime - before.CompileTime).Seconds(),
		after.DiskHits-before.DiskHits)
	return nil
}
