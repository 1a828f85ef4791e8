// Package magic implements tick's timing magics for notebook sessions:
// %timeit and %%timeit (statistics, phases, provenance and charts from
// package timing and plotting), %time and %%time (one synchronized run with
// the runtime's phase breakdown) and %compare (saved results side by side).
// Register adds them to a session; help.md holds their help texts, which
// docs/magics.md mirrors for users.
package magic

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/kernel/session"
)

//go:embed help.md
var helpMD string

// Register adds %timeit, %time and %compare to s.
func Register(s *session.Session) error {
	for _, m := range Magics() {
		if err := s.RegisterMagic(m); err != nil {
			return fmt.Errorf("magic: %w", err)
		}
	}
	return nil
}

// Magics returns the timing magics, ready for Session.RegisterMagic.
func Magics() []session.Magic {
	return []session.Magic{
		{Name: "timeit", Line: true, Cell: true, Help: help("timeit"),
			Summary: "time a statement: phases, median ± CI, warnings, provenance and charts",
			Run: func(ctx context.Context, c *session.MagicCall) error {
				h, err := host(c)
				if err != nil {
					return err
				}
				c.Value, err = timeit(ctx, h, c.Sink, c.Args, c.Body, c.IsCell)
				return err
			}},
		{Name: "time", Line: true, Cell: true, Help: help("time"),
			Summary: "run a statement once, synchronized: wall, CPU and runtime phases",
			Run: func(ctx context.Context, c *session.MagicCall) error {
				h, err := host(c)
				if err != nil {
					return err
				}
				return timeOnce(ctx, h, c.Sink, c.Args, c.Body, c.IsCell)
			}},
		{Name: "compare", Line: true, Help: help("compare"),
			Summary: "compare results saved with %timeit -v: benchstat-style table and box plots",
			Run: func(_ context.Context, c *session.MagicCall) error {
				h, err := host(c)
				if err != nil {
					return err
				}
				c.Value, err = compare(h, c.Sink, c.Args)
				return err
			}},
	}
}

// host returns the call's evaluator as a Host.
func host(c *session.MagicCall) (Host, error) {
	if c.Eval == nil {
		return nil, fmt.Errorf("magic: %%%s needs the session's evaluator", c.Name)
	}
	return c.Eval, nil
}

// help returns the section "## %name" of help.md, without its heading.
func help(name string) string {
	head := "## %" + name + "\n"
	i := strings.Index(helpMD, head)
	if i < 0 {
		panic("magic: help.md has no section " + head) // help.md is embedded: a missing section is a bug here
	}
	text := helpMD[i+len(head):]
	if j := strings.Index(text, "\n## "); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSpace(text)
}
