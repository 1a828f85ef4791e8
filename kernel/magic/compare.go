package magic

import (
	"fmt"
	"reflect"
	"strings"

	"gonum.org/v1/plot"

	"tick/display"
	"tick/plotting"
	"tick/timing"
)

const compareUsage = "%compare [-p DIGITS] [--plot=box|none] [--svg] [--json] A B [C ...]   (names saved with %timeit -v NAME)"

var compareSpecs = []optSpec{
	{Names: []string{"-p"}, Kind: optInt, Min: 1},
	{Names: []string{"--plot"}, Kind: optString, Choices: []string{"box", "none"}},
	{Names: []string{"--svg"}, Kind: optBool},
	{Names: []string{"--json"}, Kind: optBool},
}

// compare runs %compare: a benchstat-style table of saved results against
// the first, with box plots side by side.
func compare(h Host, pub display.Publisher, args string) error {
	p, err := parseOptions("compare", compareUsage, args, compareSpecs)
	if err != nil {
		return err
	}
	names := strings.Fields(p.Rest)
	if len(names) < 2 {
		return &UsageError{Magic: "compare", Option: "NAMES", Reason: "compare needs at least two results: save them with %timeit -v A ... and %timeit -v B ...", Usage: compareUsage}
	}
	results := make([]*timing.Result, len(names))
	for i, name := range names {
		r, err := savedResult(h, name)
		if err != nil {
			return err
		}
		c := *r // relabel a copy: the saved result stays as it was
		c.Label = name
		results[i] = &c
	}
	c := timing.Compare(results...)
	rep := report{Text: c.Text(p.ints["-p"]), SVG: p.has("--svg"), JSON: map[string]any{"comparison": c, "results": results}}
	if p.strs["--plot"] != "none" {
		box, err := plotting.Box(results...)
		if err != nil {
			return fmt.Errorf("%%compare: drawing the box plot: %w", err)
		}
		rep.Plots = []*plot.Plot{box}
	}
	d, err := rep.bundle(p.has("--json"))
	if err != nil {
		return fmt.Errorf("%%compare: %w", err)
	}
	newProgress(pub, "compare").show(&d)
	return nil
}

// savedResult reads a result bound with %timeit -v NAME.
func savedResult(h Host, name string) (*timing.Result, error) {
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
