package session

import (
	"context"
	"testing"
)

type nopSink struct{ recorder }

// BenchmarkExecute measures one cell `1+1` end to end (split, rewrite,
// compile, run, value).
func BenchmarkExecute(b *testing.B) {
	s := newSession(b)
	sink := &recorder{}
	for b.Loop() {
		s.Execute(context.Background(), Cell{Code: "1+1", Count: 1}, sink)
	}
}

// BenchmarkLoopIteration compares an interpreted loop iteration with the
// interrupt checkpoint the session inserts and without it (a loop whose
// variable starts with ᐩ is left alone by the rewriter).
func BenchmarkLoopIteration(b *testing.B) {
	for _, c := range []struct{ name, loop string }{
		{"checkpoint", "for j := 0; j < 100000; j++ { acc += j }"},
		{"bare", "for ᐩj := 0; ᐩj < 100000; ᐩj++ { acc += ᐩj }"},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := newSession(b)
			if err := s.Exec("acc := 0\nfunc run() { " + c.loop + " }"); err != nil {
				b.Fatal(err)
			}
			f, err := s.CompileLoop("", "run()")
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := f(1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/iter")
		})
	}
}

// BenchmarkCompiledCall measures one call of a CompileLoop function (the
// %timeit path): a call with an empty statement.
func BenchmarkCompiledCall(b *testing.B) {
	s := newSession(b)
	f, err := s.CompileLoop("", "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f(1)
	}
}
