package magic

import (
	"context"
	"fmt"

	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

const (
	timeUsage     = "%time [-p DIGITS] [--plot=bar|none] [--svg] [--json] STATEMENT"
	cellTimeUsage = "%%time [-p DIGITS] [--plot=bar|none] [--svg] [--json]   (the cell body is timed)"
)

var timeSpecs = []opts.Spec{
	{Names: []string{"-p"}, Kind: opts.Int, Min: 1},
	{Names: []string{"--plot"}, Kind: opts.String, Choices: []string{"bar", "none"}},
	{Names: []string{"--svg"}, Kind: opts.Bool},
	{Names: []string{"--json"}, Kind: opts.Bool},
}

// timeOnce runs %time / %%time: the statement is compiled once, then run
// once synchronized; wall and CPU time and the runtime's phases are shown.
func timeOnce(ctx context.Context, h Evaluator, pub outputSink, args, body string, cell bool) error {
	usage := timeUsage
	if cell {
		usage = cellTimeUsage
	}
	p, err := opts.Parse("time", usage, args, timeSpecs)
	if err != nil {
		return err
	}
	stmt := p.Rest
	if cell {
		if p.Rest != "" {
			return &UsageError{Magic: "time", Option: p.Rest, Reason: "%%time takes only options on its line: put the code in the cell body", Usage: usage}
		}
		stmt = body
	}
	if isBlank(stmt) {
		return &UsageError{Magic: "time", Option: "STATEMENT", Reason: "nothing to time: give a Go statement, e.g. %time y := f(x)", Usage: usage}
	}
	t, err := compileTarget(h, "", stmt, "")
	if err != nil {
		return fmt.Errorf("%%time: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%%time: %w", err)
	}
	end := tensor.SummarizeDebug("%time")
	o, err := timing.TimeOnce(t.Target, timing.WallClock(), timing.Provenance{})
	end()
	if err != nil {
		return fmt.Errorf("%%time: %w", err)
	}
	doc := newDocument(KindTime)
	doc.Once = o
	rep := report{Text: o.Text(p.Int("-p")), Headlines: []string{o.Headline(p.Int("-p"))}, SVG: p.Has("--svg"), Doc: doc}
	if p.Text("--plot") != "none" {
		bar, err := plotting.PhaseBar(o)
		if err != nil {
			return fmt.Errorf("%%time: drawing the phase bar: %w", err)
		}
		rep.Plots, rep.Alt = []*plot.Plot{bar}, phaseAlt(o)
	}
	outs, err := rep.outputs(p.Has("--json"))
	if err != nil {
		return fmt.Errorf("%%time: %w", err)
	}
	newProgress(pub, "time").show(outs)
	return nil
}

func isBlank(s string) bool {
	for _, c := range s {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}
