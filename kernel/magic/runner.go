package magic

import (
	"context"
	"fmt"
	"strings"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// Runner is the session.Runner front ends use: the Go engine with magics.
// Each cell is cut into segments (cell.Segments) that run in order: Go code
// on the engine, magics by their Run; the first failure ends the cell, and
// the last segment gives its value. Completion of magic names is the
// Runner's; everything else is the engine's.
type Runner struct {
	registry
	engine *session.Session
}

var _ session.Runner = (*Runner)(nil)

// NewRunner returns a Runner over engine with %lsmagic, %help, %env and
// magics registered.
func NewRunner(engine *session.Session, magics ...Magic) (*Runner, error) {
	r := &Runner{registry: registry{magics: map[string]*Magic{}}, engine: engine}
	for _, m := range append(r.builtins(), magics...) {
		if err := r.Register(m); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Engine is the Go engine the Runner runs cells on.
func (r *Runner) Engine() *session.Session { return r.engine }

// Execute runs one cell: its Go code on the engine, its magics here.
func (r *Runner) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	if q, ok := r.question(c.Code); ok {
		return q
	}
	return r.engine.ExecuteWith(ctx, c, sink, func(run *session.Run) session.Result {
		var res session.Result
		for _, seg := range cell.Segments(run.Cell()) {
			if seg.Kind == cell.Go {
				res = run.Go(seg.Span)
			} else {
				res = r.call(ctx, run, seg)
			}
			if res.Err != nil {
				return res
			}
		}
		return res
	})
}

// call runs one magic segment of the running cell.
func (r *Runner) call(ctx context.Context, run *session.Run, seg cell.Segment) session.Result {
	name, args, isCell := seg.Name, seg.Args, seg.Kind == cell.CellMagic
	if strings.HasSuffix(name, "?") && args == "" {
		return session.Result{Page: r.helpText(strings.TrimSuffix(name, "?"))}
	}
	kind := "%"
	if isCell {
		kind = "%%"
	}
	m := r.lookup(name)
	switch {
	case m == nil && !isCell:
		if why, ok := foreignMagic(name); ok {
			return magicError("%%%s is not a tick magic: %s", name, why)
		}
		return magicError("unknown magic %s%s%s; %%lsmagic lists the available magics", kind, name, r.nameHint(kind, name))
	case m == nil:
		return magicError("unknown magic %s%s%s; %%lsmagic lists the available magics", kind, name, r.nameHint(kind, name))
	case isCell && !m.Cell:
		return magicError("%%%%%s is not a cell magic; use it on a line: %%%s %s", name, name, args)
	case !isCell && !m.Line:
		return magicError("%%%s is a cell magic; start the cell with %%%%%s", name, name)
	}
	c := &Call{Name: name, Args: args, Body: seg.Body.Text(), IsCell: isCell, Cell: run.Cell().N, Eval: run.Evaluator(seg), Sink: run.Sink()}
	out, err := runMagic(ctx, m, c)
	if err != nil {
		if run.Interrupted() || ctx.Err() != nil {
			// Whatever the magic was waiting on when the interrupt came,
			// the user's question is "did my interrupt work": say so.
			return session.Result{Err: cell.Errorf(cell.Interrupted, "%s%s was stopped by an interrupt; it recorded nothing, "+
				"and everything defined before it is kept (it stopped at: %v)", kind, name, err)}
		}
		if e, ok := err.(*session.Error); ok {
			return session.Result{Err: e}
		}
		return magicError("%s", err)
	}
	return session.Result{Value: out.Value, Page: out.Page}
}

// runMagic calls m.Run, turning a panic into an error.
func runMagic(ctx context.Context, m *Magic, c *Call) (out Output, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%%%s crashed: %v", m.Name, v)
		}
	}()
	return m.Run(ctx, c)
}

func magicError(format string, args ...any) session.Result {
	return session.Result{Err: cell.Errorf(cell.MagicError, format, args...)}
}

// nameHint suggests the registered magic closest to a misspelled name.
func (r *Runner) nameHint(kind, name string) string {
	var names []string
	for _, m := range r.Magics() {
		names = append(names, m.Name)
	}
	if near := cell.Nearest(name, names); len(near) > 0 {
		return fmt.Sprintf("; did you mean %s%s?", kind, near[0])
	}
	return ""
}

// Complete completes a magic name (%name or %%name at the start of a line,
// after spaces, from the magics that take that form), or else asks the
// engine.
func (r *Runner) Complete(code string, cursor int) session.Completion {
	cursor = max(0, min(cursor, len(code)))
	if c, ok := r.completeOption(code, cursor); ok {
		return c
	}
	start := cell.IdentBefore(code, cursor)
	pct := start
	for pct > 0 && code[pct-1] == '%' && start-pct < 2 {
		pct--
	}
	if pct == start || strings.TrimSpace(code[strings.LastIndexByte(code[:pct], '\n')+1:pct]) != "" {
		return r.engine.Complete(code, cursor)
	}
	isCell := start-pct == 2
	typed := code[pct:cursor]
	matches := []string{}
	var details []session.Detail
	for _, m := range r.Magics() {
		name := "%" + m.Name
		if isCell {
			name = "%" + name
		}
		if (isCell && m.Cell || !isCell && m.Line) && strings.HasPrefix(name, typed) {
			matches = append(matches, name)
			details = append(details, session.Detail{Kind: "magic", Signature: m.Summary})
		}
	}
	return session.Completion{Matches: matches, Start: pct, End: cursor, Details: details}
}

// Inspect asks the engine.
func (r *Runner) Inspect(code string, cursor, detail int) session.Inspection {
	return r.engine.Inspect(code, cursor, detail)
}

// IsComplete asks the engine.
func (r *Runner) IsComplete(code string) session.Completeness { return r.engine.IsComplete(code) }

// Interrupt stops the running cell, Go or magic, at its next checkpoint.
func (r *Runner) Interrupt() { r.engine.Interrupt() }
