package profiling

import (
	"github.com/tick-kernel/tick/kernel/magic"
	"strings"

	"fmt"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/viz"
)

const vizUsage = "%viz EXPR   (EXPR: a *tensor.Tensor, drawn without computing it, or a *tensor.JITFunc, its captured kernels)"

// VizMIME is the vendor MIME type of %viz's Graphviz source.
const VizMIME = "application/vnd.tick.viz.v1+dot"

// vizMagic runs %viz: EXPR is evaluated in the session (building a tensor
// expression is lazy: nothing is computed), planned, laid out and shown
// as text/html (summary, the SVG graph, each kernel's IR and source in a
// collapsible section), text/plain for consoles and image/svg+xml.
func vizMagic(h magic.Evaluator, pub display.Publisher, args string) error {
	p, err := opts.Parse("viz", vizUsage, args, nil)
	if err != nil {
		return err
	}
	if strings.TrimSpace(p.Rest) == "" {
		return &magic.UsageError{Magic: "viz", Option: "EXPR", Reason: "nothing to draw: give a tensor expression, e.g. %viz x.Mul(2).Add(1)", Usage: vizUsage}
	}
	v, err := h.Eval(p.Rest)
	if err != nil {
		return fmt.Errorf("%%viz: evaluating %s: %w", p.Rest, err)
	}
	var plan *tensor.Plan
	if v.IsValid() && v.CanInterface() {
		switch x := v.Interface().(type) {
		case *tensor.Tensor:
			if x != nil {
				plan = x.Plan()
			}
		case *tensor.JITFunc:
			if x != nil {
				plan = x.Plan()
			}
		}
	}
	if plan == nil {
		t := "no value"
		if v.IsValid() {
			t = v.Type().String()
		}
		return &magic.UsageError{Magic: "viz", Option: p.Rest, Reason: "is a " + t + "; %viz draws a *tensor.Tensor or a *tensor.JITFunc", Usage: vizUsage}
	}
	plan.Title = magic.Label(p.Rest) + ": " + plan.Title
	svg, err := viz.SVG(plan)
	if err != nil {
		return fmt.Errorf("%%viz: %w", err)
	}
	pub.Publish(display.Data{Bundle: display.Bundle{
		"text/plain":    viz.Text(plan),
		"text/html":     viz.HTML(plan, svg),
		"image/svg+xml": string(svg),
		VizMIME:         viz.DOT(plan),
	}})
	return nil
}
