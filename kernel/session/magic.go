package session

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Magic is a command cells invoke with %name (line magic) or %%name (cell
// magic) instead of Go code.
type Magic struct {
	// Name is what follows % or %%.
	Name string
	// Summary is one line for %lsmagic; Help is the full text for %help.
	Summary, Help string
	// Line and Cell say whether the magic can be used as %name and %%name.
	Line, Cell bool
	// Run executes one call. Its error becomes the cell's MagicError; a
	// *UsageError says which option was wrong.
	Run func(ctx context.Context, call *MagicCall) error
}

// MagicCall is one invocation of a magic.
type MagicCall struct {
	// Name is the magic's name; Args the rest of its line; Body the lines
	// after a cell magic's first line.
	Name, Args, Body string
	// IsCell is true for %%name.
	IsCell bool
	// Count is the execution count of the cell.
	Count int
	// Session is the session.
	Session *Session
	// Eval runs Go for the magic: its positions are the magic's place in
	// the cell.
	Eval *Evaluator
	// Sink receives the magic's output.
	Sink Sink
	// Value, when set by the magic, becomes the cell's value.
	Value *display.Data
	// Page, when set, becomes the cell's Result.Page (pager text).
	Page string
}

// UsageError is the error a magic returns for bad arguments; Option names
// the offending option or argument.
type UsageError struct {
	Magic, Option, Reason string
}

func (e *UsageError) Error() string {
	return fmt.Sprintf("%%%s: %s: %s (see %%%s? for usage)", e.Magic, e.Option, e.Reason, e.Magic)
}

// RegisterMagic adds m to the session's magics, replacing none: a second
// magic with the same name is an error.
func (s *Session) RegisterMagic(m Magic) error {
	if m.Name == "" || strings.ContainsAny(m.Name, " \t%?") {
		return fmt.Errorf("session: invalid magic name %q", m.Name)
	}
	if m.Run == nil || !m.Line && !m.Cell {
		return fmt.Errorf("session: magic %q needs Run and Line or Cell", m.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.magics[m.Name]; dup {
		return fmt.Errorf("session: magic %q is already registered", m.Name)
	}
	s.magics[m.Name] = &m
	return nil
}

// Magics returns the registered magics sorted by name.
func (s *Session) Magics() []Magic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Magic, 0, len(s.magics))
	for _, m := range s.magics {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (s *Session) magic(name string) *Magic {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.magics[name]
}

// runSegments runs the segments of a cell in order (package cell says
// how a cell is cut): Go code on the engine, magics by their Run; the
// first failure ends the cell, and the last segment gives its value.
func (s *Session) runSegments(ctx context.Context, r *Run) Result {
	var res Result
	for _, seg := range cell.Segments(r.Cell()) {
		if seg.Kind == cell.Go {
			res = r.Go(seg.Span)
		} else {
			res = s.callMagic(ctx, r, seg)
		}
		if res.Err != nil {
			return res
		}
	}
	return res
}

// callMagic runs one magic call.
func (s *Session) callMagic(ctx context.Context, r *Run, seg cell.Segment) Result {
	name, args, isCell := seg.Name, seg.Args, seg.Kind == cell.CellMagic
	if strings.HasSuffix(name, "?") && args == "" {
		return Result{Page: s.helpText(strings.TrimSuffix(name, "?"))}
	}
	kind := "%"
	if isCell {
		kind = "%%"
	}
	m := s.magic(name)
	switch {
	case m == nil:
		return magicError(fmt.Sprintf("unknown magic %s%s%s; %%lsmagic lists the available magics", kind, name, s.magicHint(kind, name)))
	case isCell && !m.Cell:
		return magicError(fmt.Sprintf("%%%%%s is not a cell magic; use it on a line: %%%s %s", name, name, args))
	case !isCell && !m.Line:
		return magicError(fmt.Sprintf("%%%s is a cell magic; start the cell with %%%%%s", name, name))
	}
	call := &MagicCall{Name: name, Args: args, IsCell: isCell, Count: r.Cell().N, Session: s, Eval: r.Evaluator(seg), Sink: r.Sink()}
	if isCell {
		call.Body = seg.Body.Text()
	}
	if err := s.runMagic(ctx, m, call); err != nil {
		if r.Interrupted() || ctx.Err() != nil {
			// Whatever the magic was waiting on when the interrupt came,
			// the user's question is "did my interrupt work": say so.
			return Result{Err: cell.Errorf(cell.Interrupted, "%s%s was stopped by an interrupt; it recorded nothing, and everything defined before it is kept (it stopped at: %v)", kind, name, err)}
		}
		if e, ok := err.(*Error); ok {
			return Result{Err: e}
		}
		return magicError(err.Error())
	}
	return Result{Value: call.Value, Page: call.Page}
}

// runMagic calls m.Run, turning a panic into an error.
func (s *Session) runMagic(ctx context.Context, m *Magic, call *MagicCall) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%%%s crashed: %v", m.Name, r)
		}
	}()
	return m.Run(ctx, call)
}

func magicError(msg string) Result { return Result{Err: cell.Errorf(cell.MagicError, "%s", msg)} }

// helpText returns the help of magic name, or the list of magics.
func (s *Session) helpText(name string) string {
	name = strings.TrimLeft(name, "%")
	if name == "" {
		return s.lsmagic() + "\nUse %help NAME or %NAME? for the help of one magic.\n"
	}
	m := s.magic(name)
	if m == nil {
		return fmt.Sprintf("No magic named %%%s. %s", name, s.lsmagic())
	}
	help := m.Help
	if help == "" {
		help = m.Summary
	}
	return fmt.Sprintf("%%%s — %s\n\n%s\n", m.Name, m.Summary, strings.TrimSpace(help))
}

func (s *Session) lsmagic() string {
	var b strings.Builder
	b.WriteString("Available magics:\n")
	for _, m := range s.Magics() {
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

// registerBuiltinMagics registers %lsmagic, %help and %env.
func (s *Session) registerBuiltinMagics() {
	for _, m := range []Magic{
		{Name: "lsmagic", Summary: "list the available magics", Line: true,
			Help: "Usage: %lsmagic\n\nLists every registered magic with a one-line summary.",
			Run: func(_ context.Context, c *MagicCall) error {
				c.Sink.Stream("stdout", s.lsmagic())
				return nil
			}},
		{Name: "help", Summary: "show the help of a magic in the pager", Line: true,
			Help: "Usage: %help [NAME]\n\nShows the help of magic NAME (also: %NAME?), or the list of magics.",
			Run: func(_ context.Context, c *MagicCall) error {
				c.Page = s.helpText(c.Args)
				return nil
			}},
		{Name: "env", Summary: "show or set environment variables", Line: true, Help: envHelp, Run: runEnv},
	} {
		if err := s.RegisterMagic(m); err != nil {
			panic(err) // the built-in table is static: a failure is a bug here
		}
	}
}

const envHelp = `Usage:
  %env               list the environment
  %env NAME          show the value of NAME
  %env NAME=VALUE    set NAME (also: %env NAME VALUE)

The environment is the kernel process's: code in cells sees it through os.Getenv.`

func runEnv(_ context.Context, c *MagicCall) error {
	args := c.Args
	switch {
	case args == "":
		env := os.Environ()
		sort.Strings(env)
		c.Sink.Stream("stdout", strings.Join(env, "\n")+"\n")
		return nil
	case strings.Contains(args, "="):
		name, value, _ := strings.Cut(args, "=")
		return setenv(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if name, value, ok := strings.Cut(args, " "); ok {
		return setenv(name, strings.TrimSpace(value))
	}
	value, ok := os.LookupEnv(args)
	if !ok {
		return &UsageError{Magic: "env", Option: args, Reason: "no such environment variable"}
	}
	c.Value = &display.Data{Bundle: display.Bundle{"text/plain": fmt.Sprintf("%q", value)}}
	return nil
}

func setenv(name, value string) error {
	if name == "" || strings.ContainsAny(name, " \t") {
		return &UsageError{Magic: "env", Option: name, Reason: "not a valid variable name"}
	}
	if err := os.Setenv(name, value); err != nil {
		return fmt.Errorf("%%env: setting %s: %w", name, err)
	}
	return nil
}
