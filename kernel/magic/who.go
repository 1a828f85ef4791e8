package magic

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tick-kernel/tick/kernel/session"
)

// whoMagics are %who (names) and %whos (names, types and values).
func whoMagics() []Magic {
	return []Magic{
		{Name: "who", Line: true, Help: help("who"),
			Summary: "list the session's variables (%who TYPE… lists those of these types)",
			Run: func(_ context.Context, c *Call) (Output, error) {
				return Output{}, who(c, false)
			}},
		{Name: "whos", Line: true, Help: help("whos"),
			Summary: "table of the session's variables: name, type and value",
			Run: func(_ context.Context, c *Call) (Output, error) {
				return Output{}, who(c, true)
			}},
	}
}

func who(c *Call, table bool) error {
	want := strings.Fields(c.Args)
	var vars []session.Var
	for _, v := range c.Eval.Vars() {
		if len(want) == 0 || typeIn(v.Type, want) {
			vars = append(vars, v)
		}
	}
	if len(vars) == 0 {
		msg := "No variables yet: declare some in a cell (x := 1, var y []float64)."
		if len(want) > 0 {
			msg = fmt.Sprintf("No variables of type %s.", strings.Join(want, " or "))
		}
		c.Sink.Stream("stdout", msg+"\n")
		return nil
	}
	var b strings.Builder
	if !table {
		names := make([]string, len(vars))
		for i, v := range vars {
			names[i] = v.Name
		}
		b.WriteString(strings.Join(names, "\t") + "\n")
		c.Sink.Stream("stdout", b.String())
		return nil
	}
	w := tabwriter.NewWriter(&b, 0, 4, 3, ' ', 0)
	fmt.Fprintln(w, "Variable\tType\tData/Info")
	fmt.Fprintln(w, "--------\t----\t---------")
	for _, v := range vars {
		fmt.Fprintf(w, "%s\t%s\t%s\n", v.Name, v.Type, v.Value)
	}
	w.Flush()
	c.Sink.Stream("stdout", b.String())
	return nil
}

// typeIn reports whether typ is one of want, or its element type ([]T,
// map[K]T, *T match T).
func typeIn(typ string, want []string) bool {
	for _, w := range want {
		if typ == w || strings.TrimLeft(typ, "[]*") == w || strings.HasSuffix(typ, "]"+w) {
			return true
		}
	}
	return false
}
