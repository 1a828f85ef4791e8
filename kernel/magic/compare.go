package magic

import (
	"fmt"
	"reflect"
	"strings"

	"gonum.org/v1/plot"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic/opts"
	"github.com/tick-kernel/tick/plotting"
	"github.com/tick-kernel/tick/timing"
)

const compareUsage = "%compare [-p DIGITS] [--plot=box|none] [--svg] [--json] [-o] [-v NAME] [-q] A B [C ...]   (names saved with %timeit -v NAME)"

var compareSpecs = []opts.Spec{
	{Names: []string{"-p"}, Kind: opts.Int, Min: 1},
	{Names: []string{"--plot"}, Kind: opts.String, Choices: []string{"box", "none"}},
	{Names: []string{"--svg"}, Kind: opts.Bool},
	{Names: []string{"--json"}, Kind: opts.Bool},
	{Names: []string{"-o"}, Kind: opts.Bool},
	{Names: []string{"-v"}, Kind: opts.String},
	{Names: []string{"-q"}, Kind: opts.Bool},
}

// compare runs %compare: a benchstat-style table of saved results against
// the first, with box plots side by side. With -v NAME the
// *timing.Comparison is bound to a session variable; with -o it is also
// the cell's value (the table as text, the comparison as JSON).
func compare(h Evaluator, pub outputSink, args string) (*display.Data, error) {
	p, err := opts.Parse("compare", compareUsage, args, compareSpecs)
	if err != nil {
		return nil, err
	}
	bad := func(opt, reason string) error {
		return &UsageError{Magic: "compare", Option: opt, Reason: reason, Usage: compareUsage}
	}
	name := p.Text("-v")
	if p.Has("-v") && !isIdent(name) {
		return nil, bad("-v", "\""+name+"\" is not a Go identifier: name the variable like cmp or fastVsBase")
	}
	if p.Has("-q") && p.Has("--json") {
		return nil, bad("-q", "-q shows nothing and --json shows only JSON: choose one")
	}
	names := strings.Fields(p.Rest)
	if len(names) < 2 {
		return nil, bad("NAMES", "compare needs at least two results: save them with %timeit -v A ... and %timeit -v B ...")
	}
	results := make([]*timing.Result, len(names))
	for i, n := range names {
		r, err := savedResult(h, n)
		if err != nil {
			return nil, err
		}
		c := *r // relabel a copy: the saved result stays as it was
		c.Label = n
		results[i] = &c
	}
	c := timing.Compare(results...)
	if name != "" {
		if err := h.SetVar(name, c); err != nil {
			return nil, fmt.Errorf("%%compare -v %s: %w", name, err)
		}
	}
	digits := p.Int("-p")
	if !p.Has("-q") {
		if err := showComparison(pub, p, c, results); err != nil {
			return nil, err
		}
	}
	if !p.Has("-o") {
		return nil, nil
	}
	doc := newDocument(KindCompare)
	doc.Comparison, doc.Results = c, results
	v, err := resultValue(c.Text(digits), doc, p.Has("-q"))
	if err != nil {
		return nil, fmt.Errorf("%%compare: %w", err)
	}
	return v, nil
}

// showComparison publishes the comparison's table, box plots and JSON.
func showComparison(pub outputSink, p *opts.Options, c *timing.Comparison, results []*timing.Result) error {
	doc := newDocument(KindCompare)
	doc.Comparison, doc.Results = c, results
	rep := report{Text: c.Text(p.Int("-p")), Headlines: []string{c.Header(p.Int("-p"))}, SVG: p.Has("--svg"), Doc: doc}
	if p.Text("--plot") != "none" {
		box, err := plotting.Box(results...)
		if err != nil {
			return fmt.Errorf("%%compare: drawing the box plot: %w", err)
		}
		rep.Plots, rep.Alt = []*plot.Plot{box}, boxAlt(c)
	}
	outs, err := rep.outputs(p.Has("--json"))
	if err != nil {
		return fmt.Errorf("%%compare: %w", err)
	}
	newProgress(pub, "compare").show(outs)
	return nil
}

// savedResult reads a result bound with %timeit -v NAME.
func savedResult(h Evaluator, name string) (*timing.Result, error) {
	bad := func(reason string) error {
		return &UsageError{Magic: "compare", Option: name, Reason: reason, Usage: compareUsage}
	}
	if !isIdent(name) {
		return nil, bad("not a variable name")
	}
	v, err := h.Eval(name)
	if err != nil {
		return nil, bad("no such variable: save a result first with %timeit -v " + name + " STATEMENT")
	}
	if v.IsValid() && v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	r, ok := reflect.Value{}, false
	if v.IsValid() {
		r = v
		_, ok = r.Interface().(*timing.Result)
	}
	if !ok || r.IsNil() {
		t := "nil"
		if v.IsValid() {
			t = v.Type().String()
		}
		return nil, bad("is a " + t + ", not a timing result: save one with %timeit -v " + name + " STATEMENT")
	}
	return r.Interface().(*timing.Result), nil
}
