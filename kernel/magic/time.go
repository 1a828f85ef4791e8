package magic

import (
	"context"
	"fmt"

	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

const (
	timeUsage     = "%time [-p DIGITS] [--plot=bar|none] [--svg] [--json] STATEMENT"
	cellTimeUsage = "%%time [-p DIGITS] [--plot=bar|none] [--svg] [--json]   (the cell body is timed)"
)

var timeSpecs = []optSpec{
	{Names: []string{"-p"}, Kind: optInt, Min: 1},
	{Names: []string{"--plot"}, Kind: optString, Choices: []string{"bar", "none"}},
	{Names: []string{"--svg"}, Kind: optBool},
	{Names: []string{"--json"}, Kind: optBool},
}

// timeOnce runs %time / %%time: the statement is compiled once, then run
// once synchronized; wall and CPU time and the runtime's phases are shown.
func timeOnce(ctx context.Context, h Evaluator, pub outputSink, args, body string, cell bool) error {
	usage := timeUsage
	if cell {
		usage = cellTimeUsage
	}
	p, err := parseOptions("time", usage, args, timeSpecs)
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
	rep := report{Text: o.Text(p.ints["-p"]), Headlines: []string{o.Headline(p.ints["-p"])}, SVG: p.has("--svg"), Doc: doc}
	if p.strs["--plot"] != "none" {
		bar, err := plotting.PhaseBar(o)
		if err != nil {
			return fmt.Errorf("%%time: drawing the phase bar: %w", err)
		}
		rep.Plots, rep.Alt = []*plot.Plot{bar}, phaseAlt(o)
	}
	outs, err := rep.outputs(p.has("--json"))
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
