package session

import (
	"context"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
)

// BenchmarkExecute measures one cell `1+1` end to end (split, rewrite,
// compile, run, value).
func BenchmarkExecute(b *testing.B) {
	s := newSession(b)
	sink := &sinktest.Recorder{}
	for b.Loop() {
		s.Execute(context.Background(), Cell{Code: "1+1", Count: 1}, sink)
	}
}

// BenchmarkLoopIteration compares an interpreted loop iteration with the
// interrupt checkpoint the session inserts into user loops ("checkpoint":
// a loop in a cell's function) and without it ("bare": the timed loop of
// CompileLoop, which the harness marks as generated).
func BenchmarkLoopIteration(b *testing.B) {
	const n = 100000
	s := newSession(b)
	if err := s.Exec("acc := 0\nfunc run() { for j := 0; j < 100000; j++ { acc++ } }"); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, stmt string
		calls      int
	}{
		{"checkpoint", "run()", 1},
		{"bare", "acc++", n},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, err := s.CompileLoop("", c.stmt)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := f(c.calls); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/iter")
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

// BenchmarkChannelOps measures channel operations in an interpreted
// function as the session runs them: a send and a receive on a buffered
// channel per iteration ("send_recv", an int channel, and
// "send_recv_struct", a channel of a cell type, off the type-switch fast
// path; both rewritten into calls of the interruptible helpers), a loop of
// the same length without them ("loop"), for the per-operation cost by
// difference, and the int loop in a bare interpreter without tick's
// rewrites ("yaegi_send_recv", the cost before the helpers).
func BenchmarkChannelOps(b *testing.B) {
	const n = 10000
	const vars, fn = "ch := make(chan int, 1)\nsum := 0\n",
		"func sendRecv() { for j := 0; j < 10000; j++ { ch <- j; v := <-ch; sum += v } }\n"
	s := newSession(b)
	if err := s.Exec(vars + fn +
		"type pt struct{ X, Y int }\nps := make(chan pt, 1)\n" +
		"func sendRecvStruct() { for j := 0; j < 10000; j++ { ps <- pt{j, 1}; v := <-ps; sum += v.X } }\n" +
		"func plain() { for j := 0; j < 10000; j++ { sum += j } }"); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, stmt string }{{"send_recv", "sendRecv()"}, {"send_recv_struct", "sendRecvStruct()"}, {"loop", "plain()"}} {
		b.Run(c.name, func(b *testing.B) {
			f, err := s.CompileLoop("", c.stmt)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := f(1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/iter")
		})
	}
	b.Run("yaegi_send_recv", func(b *testing.B) {
		ip := interp.New(interp.Options{})
		for _, c := range []string{vars, fn} {
			if _, err := ip.Eval(c); err != nil {
				b.Fatal(err)
			}
		}
		v, err := ip.Eval("sendRecv")
		if err != nil {
			b.Fatal(err)
		}
		f := v.Interface().(func())
		for b.Loop() {
			f()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/iter")
	})
}

// BenchmarkPrintln measures one fmt.Println of an int from cell code, to
// the cell's stream (the session drains the os.Stdout and os.Stderr pipes
// before each print: stdio_unix.go).
func BenchmarkPrintln(b *testing.B) {
	s := newSession(b)
	if err := s.Exec("func printMany(n int) { for i := 0; i < n; i++ { fmt.Println(i) } }"); err != nil {
		b.Fatal(err)
	}
	f, err := s.CompileLoop("", "printMany(1000)")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := f(1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/print")
}
