package session

import (
	"fmt"
	"io"
	"testing"

	"github.com/tick-kernel/tick/kernel/session/bridge"
)

// BenchmarkCellFmt measures what the fmt functions of cell code add to a
// call (package bridge): "go" is fmt.Fprintln with the operands as they come,
// "session" the same call through the session's operand check, for three
// ints, a struct of a cell type (the proxy prints it) and one with a
// String method (the proxy calls it: interpreted code); go prints the
// interpreter's bare struct; "check_only" is the session's operand check
// alone. Run:
// go test ./kernel/session -run '^$' -bench BenchmarkCellFmt -benchtime 200000x
func BenchmarkCellFmt(b *testing.B) {
	s := newSession(b)
	if err := s.Exec("type Inner struct{ A int; secret string }\nfunc (i Inner) String() string { return fmt.Sprint(\"in\", i.A) }\nvar in = Inner{1, \"s\"}\ntype Plain struct{ B int; c string; D bool }\nvar pl = Plain{2, \"t\", true}"); err != nil {
		b.Fatal(err)
	}
	in, pl := s.vm.globals()["in"], s.vm.globals()["pl"]
	if !in.IsValid() || !pl.IsValid() {
		b.Fatal("no in or pl")
	}
	for _, c := range []struct {
		name string
		args []any
	}{
		{"ints", []any{1, 2, 3}},
		{"cell_struct", []any{pl.Interface()}},
		{"cell_stringer", []any{in.Interface()}},
	} {
		b.Run(c.name+"/go", func(b *testing.B) {
			for b.Loop() {
				fmt.Fprintln(io.Discard, bridge.SafeArgs(c.args)...)
			}
		})
		b.Run(c.name+"/check_only", func(b *testing.B) {
			for b.Loop() {
				s.ct.Args(c.args)
			}
		})
		b.Run(c.name+"/session", func(b *testing.B) {
			for b.Loop() {
				fmt.Fprintln(io.Discard, s.ct.Args(bridge.SafeArgs(c.args))...)
			}
		})
	}
}
