package magic

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// timeit runs %timeit (cell false: args is the line) or %%timeit (args is
// the first line, body the cell). It publishes the result to pub and
// returns the cell value (with -o) or nil.
func timeit(ctx context.Context, h Evaluator, pub outputSink, args, body string, cell bool) (*display.Data, error) {
	a, err := parseTimeit(args, body, cell)
	if err != nil {
		return nil, err
	}
	target, err := compileTarget(h, a.Setup, a.Stmt, a.Check)
	if err != nil {
		return nil, fmt.Errorf("%%timeit: %w", err)
	}
	a.Opts.Floor = target.Floor
	// DEBUG≥1 inside the magic: a summary per kernel after the measurement,
	// not a line per launch for thousands of calls.
	defer tensor.SummarizeDebug("%timeit")()
	prog := newProgress(pub, "timeit")
	if !a.Quiet {
		a.Opts.Progress = prog.update
	}
	var rep report
	var r *timing.Result
	if a.Vs != "" {
		r, rep, err = timeitVs(ctx, h, a, target.Target)
	} else {
		r, rep, err = timeitOne(ctx, a, target, snapshotInputs(h, a.Stmt))
	}
	if err != nil {
		prog.abort(stopReason(ctx))
		return nil, fmt.Errorf("%%timeit: %w", err)
	}
	if a.Var != "" {
		if err := h.SetVar(a.Var, r); err != nil {
			prog.abort("failed")
			return nil, fmt.Errorf("%%timeit -v %s: %w", a.Var, err)
		}
	}
	if a.Quiet {
		prog.abort("done (-q shows nothing)")
	} else {
		outs, err := rep.outputs(a.JSON)
		if err != nil {
			prog.abort("failed")
			return nil, fmt.Errorf("%%timeit: %w", err)
		}
		prog.show(outs)
	}
	if !a.Object {
		return nil, nil
	}
	return resultValue(r.Headline(a.Digits), rep.Doc, a.Quiet)
}

// timeitOne measures one statement.
func timeitOne(ctx context.Context, a *timeitArgs, t timedStmt, inputs *inputSnapshot) (*timing.Result, report, error) {
	r, err := timing.Measure(ctx, t.Target, a.Opts)
	if err != nil {
		return nil, report{}, err
	}
	r.Label = label(a.Stmt)
	onceBuildWarning(r)
	if w := inputs.warning(r, a.Setup != ""); w != nil { // mutation.go
		for i := range r.Warnings { // the cold call was the only one on fresh data: say so where it is blamed
			if r.Warnings[i].Kind == timing.WarnColdDominates {
				r.Warnings[i].Message += "; here the cold call was also the only one on the data as it was before the statement changed it (next warning)"
			}
		}
		r.Warnings = append(r.Warnings, *w)
	}
	if w := interpretedWarning(ctx, a.Stmt, t, r); w != nil { // interpreted.go
		r.Warnings = append(r.Warnings, *w)
	}
	plots, alt, err := resultPlots(r, a.Plots)
	if err != nil {
		return nil, report{}, err
	}
	doc := newDocument(KindTimeit)
	doc.Result = r
	return r, report{Text: r.Text(a.Digits), Headlines: []string{r.Headline(a.Digits)}, Plots: plots, Alt: alt, SVG: a.SVG, Doc: doc}, nil
}

// timeitVs interleaves the statement with --vs OTHER and compares them.
// The returned result is the statement's own.
func timeitVs(ctx context.Context, h Evaluator, a *timeitArgs, t timing.Target) (*timing.Result, report, error) {
	other, err := compileTarget(h, a.Setup, a.Vs, a.VsCheck)
	if err != nil {
		return nil, report{}, fmt.Errorf("--vs: %w", err)
	}
	ra, rb, err := timing.Interleave(ctx, t, other.Target, a.Opts)
	if err != nil {
		return nil, report{}, err
	}
	ra.Label, rb.Label = label(a.Stmt), label(a.Vs)
	onceBuildWarning(ra, rb)
	c := timing.Compare(ra, rb)
	doc := newDocument(KindTimeitVs)
	doc.Comparison, doc.Results = c, []*timing.Result{ra, rb}
	rep := report{Text: c.Text(a.Digits) + "\n" + ra.Text(a.Digits) + "\n" + rb.Text(a.Digits), SVG: a.SVG, Doc: doc,
		Headlines: []string{c.Header(a.Digits), ra.Headline(a.Digits), rb.Headline(a.Digits)}}
	if len(a.Plots) > 0 {
		box, err := plotting.Box(ra, rb)
		if err != nil {
			return nil, report{}, fmt.Errorf("drawing the box plot: %w", err)
		}
		rep.Plots, rep.Alt = []*plot.Plot{box}, boxAlt(c)
	}
	return ra, rep, nil
}

// buildWarned is set once a result has shown the unidentified-build
// warning: it is about the process, so a kernel (one session per tick
// process) shows it once, not under every measurement.
var buildWarned atomic.Bool

// onceBuildWarning drops r's unidentified-build warning after the first.
func onceBuildWarning(rs ...*timing.Result) {
	for _, r := range rs {
		i := slices.IndexFunc(r.Warnings, func(w timing.Warning) bool { return w.Kind == timing.WarnUnidentifiedBuild })
		if i >= 0 && buildWarned.Swap(true) {
			r.Warnings = slices.Delete(r.Warnings, i, i+1)
		}
	}
}

// Label shortens a statement to name its result in tables and charts.
func Label(stmt string) string { return label(stmt) }

// label shortens a statement to name its result in tables and charts: its
// first line, spaces collapsed, with " …" when more lines follow (a %%timeit
// body), cut to 40 characters.
func label(stmt string) string {
	var lines []string
	for _, l := range strings.Split(stmt, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	s := lines[0]
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	if len(lines) > 1 {
		s += " …"
	}
	return s
}
