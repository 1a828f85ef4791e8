package supervisor

import (
	"context"
	"testing"

	"github.com/tick-kernel/tick/kernel/session"
)

// BenchmarkExecute is what the engine process adds to a cell: the same
// scripted runner called in this process ("direct") and through the
// engine's pipes ("engine"). "get" is a cell that returns a value;
// "print-1000" streams 1,000 lines, one Sink.Stream call each (the
// session batches a cell's printed text into far fewer calls: this is the
// worst case per line). docs/benchmarks.md, "The engine process".
func BenchmarkExecute(b *testing.B) {
	direct := newScript()
	r := New(Config{Command: testEngine})
	defer r.Close()
	for _, runner := range []struct {
		name string
		r    session.Runner
	}{{"direct", direct}, {"engine", r}} {
		runner.r.Execute(context.Background(), session.Cell{Code: "set x=1"}, session.Discard)
		for _, code := range []string{"get x", "print 1000"} {
			b.Run(runner.name+"/"+code, func(b *testing.B) {
				for b.Loop() {
					res := runner.r.Execute(context.Background(), session.Cell{Code: code}, session.Discard)
					if res.Err != nil {
						b.Fatal(res.Err)
					}
				}
			})
		}
	}
}
