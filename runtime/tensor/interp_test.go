package tensor

// The runtime driven from interpreted code (yaegi), as a notebook cell does.
// The symbol table here is a hand-written subset for tests only; notebooks
// use the generated one registered by the session.

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

func newInterp(t testing.TB) *interp.Interpreter {
	i := interp.New(interp.Options{})
	err := i.Use(interp.Exports{"tick/runtime/tensor/tensor": {
		"JIT":            reflect.ValueOf(JIT),
		"FromFloat32s":   reflect.ValueOf(FromFloat32s),
		"SynchronizeAll": reflect.ValueOf(SynchronizeAll),
		"Tensor":         reflect.ValueOf((*Tensor)(nil)),
		"JITFunc":        reflect.ValueOf((*JITFunc)(nil)),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// interpSrc is the tutorial's example as a notebook would write it, plus a
// 10-kernel step for the replay benchmark.
const interpSrc = `
import "tick/runtime/tensor"

func Tutorial() []float32 {
	v := make([]float32, 256)
	for i := range v {
		v[i] = float32(i)
	}
	x := tensor.FromFloat32s(v).Realize()
	step := tensor.JIT(func(a ...*tensor.Tensor) *tensor.Tensor { return a[0].Mul(2).Add(1).Realize() })
	step.Call(x)
	step.Call(x)
	tensor.SynchronizeAll()
	var result *tensor.Tensor
	for i := 0; i < 10; i++ {
		result = step.Call(x)
	}
	tensor.SynchronizeAll()
	return result.Float32s()
}

func Ten(in ...*tensor.Tensor) *tensor.Tensor {
	x := in[0]
	for k := 0; k < 10; k++ {
		x = x.Mul(1.0001).Add(0.5).Realize()
	}
	return x
}

var tenJIT = tensor.JIT(Ten)

func Replay(x *tensor.Tensor, n int) {
	for i := 0; i < n; i++ {
		tenJIT.Call(x)
	}
	tensor.SynchronizeAll()
}

func Eager(x *tensor.Tensor, n int) {
	for i := 0; i < n; i++ {
		Ten(x)
	}
	tensor.SynchronizeAll()
}
`

func evalFunc(t testing.TB, i *interp.Interpreter, name string) reflect.Value {
	v, err := i.Eval(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestTutorialFromInterpretedCode(t *testing.T) {
	onDevice(t, "GO")
	i := newInterp(t)
	if _, err := i.Eval(interpSrc); err != nil {
		t.Fatal(err)
	}
	got := evalFunc(t, i, "Tutorial").Interface().(func() []float32)()
	for k, g := range got {
		if g != float32(2*k+1) {
			t.Fatalf("result[%d] = %v, want %d", k, g, 2*k+1)
		}
	}
	if len(got) != 256 {
		t.Fatalf("%d results, want 256", len(got))
	}
}

// BenchmarkJITReplayInterpreted: the 10-kernel step on 256 elements with the
// JIT'd function and the call loop both interpreted by yaegi.
func BenchmarkJITReplayInterpreted(b *testing.B) {
	setDev(b, "GO")
	i := newInterp(b)
	if _, err := i.Eval(interpSrc); err != nil {
		b.Fatal(err)
	}
	replay := evalFunc(b, i, "Replay").Interface().(func(*Tensor, int))
	eager := evalFunc(b, i, "Eager").Interface().(func(*Tensor, int))
	x := RandSeed(3, 256).Realize()
	replay(x, 3)
	const calls = 100
	var tr, te float64
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		t0 := nowNS()
		eager(x, calls)
		te += nowNS() - t0
		t0 = nowNS()
		replay(x, calls)
		tr += nowNS() - t0
	}
	per := float64(b.N * calls)
	b.ReportMetric(te/per, "eager_ns/call")
	b.ReportMetric(tr/per, "replay_ns/call")
	b.ReportMetric(tr/per/10, "replay_ns/kernel")
	b.ReportMetric(te/tr, "speedup")
}
