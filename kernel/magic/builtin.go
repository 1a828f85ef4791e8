package magic

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/display"
)

// builtins are the magics every Runner has: %lsmagic, %help and %env.
func (r *Runner) builtins() []Magic {
	return []Magic{
		{Name: "lsmagic", Summary: "list the available magics", Line: true,
			Help: "Usage: %lsmagic\n\nLists every registered magic with a one-line summary.",
			Run: func(_ context.Context, c *Call) (Output, error) {
				c.Sink.Stream("stdout", r.lsmagic())
				return Output{}, nil
			}},
		{Name: "help", Summary: "show the help of a magic in the pager", Line: true,
			Help: "Usage: %help [NAME]\n\nShows the help of magic NAME (also: %NAME?), or the list of magics.",
			Run: func(_ context.Context, c *Call) (Output, error) {
				return Output{Page: r.helpText(c.Args)}, nil
			}},
		{Name: "env", Summary: "show or set environment variables", Line: true, Help: envHelp, Run: runEnv},
	}
}

// helpText returns the help of magic name, or the list of magics.
func (r *Runner) helpText(name string) string {
	name = strings.TrimLeft(name, "%")
	if name == "" {
		return r.lsmagic() + "\nUse %help NAME or %NAME? for the help of one magic.\n"
	}
	m := r.lookup(name)
	if m == nil {
		return fmt.Sprintf("No magic named %%%s. %s", name, r.lsmagic())
	}
	help := m.Help
	if help == "" {
		help = m.Summary
	}
	return fmt.Sprintf("%%%s — %s\n\n%s\n", m.Name, m.Summary, strings.TrimSpace(help))
}

func (r *Runner) lsmagic() string {
	var b strings.Builder
	b.WriteString("Available magics:\n")
	for _, m := range r.Magics() {
		forms := []string{}
		if m.Line {
			forms = append(forms, "%"+m.Name)
		}
		if m.Cell {
			forms = append(forms, "%%"+m.Name)
		}
		fmt.Fprintf(&b, "  %-24s %s\n", strings.Join(forms, " "), m.Summary)
	}
	return b.String()
}

const envUsage = "%env [NAME[=VALUE]]"

const envHelp = `Usage:
  %env               list the environment
  %env NAME          show the value of NAME
  %env NAME=VALUE    set NAME (also: %env NAME VALUE)

The environment is the kernel process's: code in cells sees it through os.Getenv.`

func runEnv(_ context.Context, c *Call) (Output, error) {
	args := c.Args
	switch {
	case args == "":
		env := os.Environ()
		sort.Strings(env)
		c.Sink.Stream("stdout", strings.Join(env, "\n")+"\n")
		return Output{}, nil
	case strings.Contains(args, "="):
		name, value, _ := strings.Cut(args, "=")
		return Output{}, setenv(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if name, value, ok := strings.Cut(args, " "); ok {
		return Output{}, setenv(name, strings.TrimSpace(value))
	}
	value, ok := os.LookupEnv(args)
	if !ok {
		return Output{}, &UsageError{Magic: "env", Option: args, Reason: "no such environment variable", Usage: envUsage}
	}
	return Output{Value: &display.Data{Bundle: display.Bundle{"text/plain": fmt.Sprintf("%q", value)}}}, nil
}

func setenv(name, value string) error {
	if name == "" || strings.ContainsAny(name, " \t") {
		return &UsageError{Magic: "env", Option: name, Reason: "not a valid variable name", Usage: envUsage}
	}
	if err := os.Setenv(name, value); err != nil {
		return fmt.Errorf("%%env: setting %s: %w", name, err)
	}
	return nil
}
