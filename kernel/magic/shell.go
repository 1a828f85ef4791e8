package magic

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session"
)

// shellMagics are !cmd (%system), %pwd and %cd. They share the previous
// directory %cd - returns to.
func shellMagics() []Magic {
	d := &dirs{}
	return []Magic{
		{Name: "system", Line: true, Help: help("system"),
			Summary: "run a shell command (also: !cmd): output streamed, exit status shown",
			Run: func(ctx context.Context, c *Call) (Output, error) {
				return Output{}, runShell(ctx, c)
			}},
		{Name: "pwd", Line: true, Help: help("pwd"),
			Summary: "the kernel's working directory",
			Run: func(context.Context, *Call) (Output, error) {
				wd, err := os.Getwd()
				if err != nil {
					return Output{}, fmt.Errorf("%%pwd: %w", err)
				}
				return Output{Value: &display.Data{Bundle: display.Bundle{"text/plain": wd}}}, nil
			}},
		{Name: "cd", Line: true, Help: help("cd"),
			Summary: "change the kernel's working directory (%cd DIR, %cd -, %cd for home)",
			Run: func(_ context.Context, c *Call) (Output, error) {
				return Output{}, d.cd(c)
			}},
	}
}

// dirs remembers the directory before the last %cd.
type dirs struct {
	mu   sync.Mutex
	prev string
}

const cdUsage = "%cd [DIR | - | ~]"

func (d *dirs) cd(c *Call) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	old, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("%%cd: the current directory: %w", err)
	}
	target := strings.TrimSpace(c.Args)
	if len(target) >= 2 && (target[0] == '"' || target[0] == '\'') && target[len(target)-1] == target[0] {
		target = target[1 : len(target)-1]
	}
	switch {
	case target == "-":
		if d.prev == "" {
			return &UsageError{Magic: "cd", Option: "-", Reason: "no previous directory yet (%cd DIR first)", Usage: cdUsage}
		}
		target = d.prev
	case target == "" || target == "~" || strings.HasPrefix(target, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("%%cd: no home directory: %w; give a directory", err)
		}
		target = filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(target, "~"), "/"))
	}
	if err := os.Chdir(target); err != nil {
		return fmt.Errorf("%%cd: cannot change to %s: %w; the kernel is still in %s", target, unwrapPath(err), old)
	}
	d.prev = old
	wd, _ := os.Getwd()
	c.Sink.Stream("stdout", wd+"\n")
	return nil
}

// unwrapPath drops the path a *PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// runShell runs c.Args with the system shell in the kernel's directory
// and environment, streaming its stdout and stderr as they come. An
// interrupt kills the command (and what it started).
func runShell(ctx context.Context, c *Call) error {
	line := strings.TrimSpace(c.Args)
	if line == "" {
		return &UsageError{Magic: "system", Reason: "no command", Usage: "!COMMAND or %system COMMAND"}
	}
	return runStreamed(ctx, c, shellCommand(line), "!"+line)
}

// runStreamed runs cmd (started in its own process group by shellCommand),
// streaming its stdout and stderr to the cell as they come; an interrupt
// kills it and what it started. label names the command in messages.
func runStreamed(ctx context.Context, c *Call, cmd *exec.Cmd, label string) error {
	out, errOut := &streamWriter{sink: c.Sink, name: "stdout"}, &streamWriter{sink: c.Sink, name: "stderr"}
	cmd.Stdout, cmd.Stderr = out, errOut
	// A background job (cmd &) keeps the pipes open after the shell
	// exits: stop waiting for them soon after.
	cmd.WaitDelay = 500 * time.Millisecond
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: cannot start the shell: %w", label, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	stopped := false
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-ctx.Done():
		case <-tick.C:
			if !c.Eval.Interrupted() {
				continue
			}
		}
		if !stopped {
			stopped = true
			killTree(cmd)
		}
	}
	out.flush()
	errOut.flush()
	if stopped {
		return fmt.Errorf("%s was killed", label)
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		c.Sink.Stream("stderr", fmt.Sprintf("%s: the shell exited; a process it left running in the background keeps its output, which is not shown\n", label))
		return nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code := exit.ExitCode()
		hint := ""
		if code == 127 {
			hint = " (the shell found no such command on the kernel's PATH)"
		}
		c.Sink.Stream("stderr", fmt.Sprintf("%s: exit status %d%s\n", label, code, hint))
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	return nil
}

// streamWriter sends what a command writes to the cell's stream as it
// comes, holding back an incomplete UTF-8 sequence at the end of a write.
type streamWriter struct {
	mu      sync.Mutex
	sink    session.Sink
	name    string
	pending []byte
}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := append(w.pending, p...)
	cut := len(buf)
	for i := 1; i <= utf8.UTFMax && i <= len(buf); i++ {
		if utf8.RuneStart(buf[len(buf)-i]) {
			if !utf8.FullRune(buf[len(buf)-i:]) {
				cut = len(buf) - i
			}
			break
		}
	}
	if cut > 0 {
		w.sink.Stream(w.name, string(buf[:cut]))
	}
	w.pending = append([]byte(nil), buf[cut:]...)
	return len(p), nil
}

func (w *streamWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) > 0 {
		w.sink.Stream(w.name, string(w.pending))
		w.pending = nil
	}
}
