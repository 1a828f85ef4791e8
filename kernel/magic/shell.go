package magic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/job"
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
// and environment (runStreamed).
func runShell(ctx context.Context, c *Call) error {
	line := strings.TrimSpace(c.Args)
	if line == "" {
		return &UsageError{Magic: "system", Reason: "no command", Usage: "!COMMAND or %system COMMAND"}
	}
	return runStreamed(ctx, c, job.Command(line), "!"+line)
}

// runStreamed runs cmd (made by shellCommand), streaming its stdout and
// stderr to the cell as they come. The command and everything it starts
// are a job (a process group, and cgroups where they can be made:
// job.Start): the cell runs until the job is empty — a program the
// command left running in the background keeps the cell running, and says
// so — and an interrupt kills the job until it is empty, saying how many
// processes it ended. label names the command in messages.
func runStreamed(ctx context.Context, c *Call, cmd *exec.Cmd, label string) error {
	out, errOut := &streamWriter{sink: c.Sink, name: "stdout"}, &streamWriter{sink: c.Sink, name: "stderr"}
	pipes, err := newOutputPipes(out, errOut)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	j, cmd, err := job.Start(func() *exec.Cmd {
		fresh := recreate(cmd)
		fresh.Stdout, fresh.Stderr = pipes.writers[0], pipes.writers[1]
		return fresh
	})
	pipes.started()
	if err != nil {
		pipes.close(0)
		return fmt.Errorf("%s: cannot start the shell: %w", label, err)
	}
	defer j.Release()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var status error
	shellDone, noted := false, false
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case status = <-exited:
			shellDone, exited = true, nil
		case <-tick.C:
		case <-ctx.Done():
		}
		if ctx.Err() != nil || c.Eval.Interrupted() {
			ended, left := j.End()
			pipes.close(500 * time.Millisecond)
			return killedError(label, ended, left)
		}
		if !shellDone {
			continue
		}
		n := j.Alive()
		if n == 0 {
			break
		}
		if !noted {
			noted = true
			c.Sink.Stream("stderr", fmt.Sprintf("%s: the shell exited; %s it started %s still running, and the cell waits for them "+
				"(an interrupt ends them; to leave a program running after the cell, start it in a session of its own: !setsid PROGRAM &)\n",
				label, plural(n, "process", "processes"), isAre(n)))
		}
	}
	if !pipes.close(500 * time.Millisecond) {
		c.Sink.Stream("stderr", fmt.Sprintf("%s: a process it started in a session of its own keeps its output, which is not shown\n", label))
	}
	var exit *exec.ExitError
	if errors.As(status, &exit) {
		code := exit.ExitCode()
		hint := ""
		if code == 127 {
			hint = " (the shell found no such command on the kernel's PATH)"
		}
		c.Sink.Stream("stderr", fmt.Sprintf("%s: exit status %d%s\n", label, code, hint))
		return nil
	}
	if status != nil {
		return fmt.Errorf("%s: %w", label, status)
	}
	return nil
}

// killedError is the error of an interrupted command: how many processes
// ending it took, and any that could not be ended.
func killedError(label string, ended, left int) error {
	msg := fmt.Sprintf("%s was killed", label)
	if ended > 0 {
		msg += fmt.Sprintf(": tick ended its %s", plural(ended, "process", "processes"))
	}
	if left > 0 {
		msg += fmt.Sprintf("; %s left its process group and could not be ended (kill them by hand)", plural(left, "process", "processes"))
	}
	return errors.New(msg)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// outputPipes carry a command's stdout and stderr to the cell: the
// command's processes hold the write ends, two goroutines copy from the
// read ends until every holder has exited.
type outputPipes struct {
	readers, writers []*os.File
	done             chan struct{}
}

func newOutputPipes(out, errOut *streamWriter) (*outputPipes, error) {
	p := &outputPipes{done: make(chan struct{}, 2)}
	for _, w := range []*streamWriter{out, errOut} {
		r, wr, err := os.Pipe()
		if err != nil {
			p.close(0)
			return nil, fmt.Errorf("cannot make a pipe: %w", err)
		}
		p.readers, p.writers = append(p.readers, r), append(p.writers, wr)
		go func(r *os.File, w *streamWriter) {
			_, _ = io.Copy(w, r)
			w.flush()
			p.done <- struct{}{}
		}(r, w)
	}
	return p, nil
}

// started closes this process's write ends (the command has its own).
func (p *outputPipes) started() {
	for _, w := range p.writers {
		w.Close()
	}
	p.writers = nil
}

// close waits up to grace for the copies to finish (every writer gone),
// then closes the read ends; it reports whether they finished.
func (p *outputPipes) close(grace time.Duration) bool {
	p.started()
	timeout := time.After(grace)
	finished := true
	for range p.readers {
		select {
		case <-p.done:
		case <-timeout:
			finished = false
		}
		if !finished {
			break
		}
	}
	for _, r := range p.readers {
		r.Close()
	}
	return finished
}

// recreate makes a new, unstarted copy of cmd: starting in a cgroup may
// fail and be tried again without one.
func recreate(cmd *exec.Cmd) *exec.Cmd {
	fresh := exec.Command(cmd.Path)
	fresh.Args, fresh.Env, fresh.Dir, fresh.Stdin = cmd.Args, cmd.Env, cmd.Dir, cmd.Stdin
	if cmd.SysProcAttr != nil {
		attr := *cmd.SysProcAttr
		fresh.SysProcAttr = &attr
	}
	return fresh
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
