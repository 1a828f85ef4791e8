// Command mlpbench times one training step of an MLP 784-256-10 (ReLU,
// softmax cross-entropy, Adam), batch 128, float32, on a tick device:
// nn.Linear layers, Backward for the gradients, optim.Adam for the update,
// the whole step captured by tensor.JIT and replayed. bench/mlp.sh runs it
// interleaved with bench/mlp_numpy.py (the same step in numpy with the
// backward pass written by hand) on the same initial weights and batches,
// and bench/mlp_report.py turns the lines into docs/benchmarks.md's table.
//
// Usage: go run ./bench/mlpbench -device CPU DIR [-quick]
//
// DIR holds the initial weights and batches bench/mlp_numpy.py --init
// wrote. Output: lines "mlp<TAB>tick DEVICE<TAB>metric<TAB>value".
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/nn"
	"github.com/tick-kernel/tick/runtime/optim"
	"github.com/tick-kernel/tick/runtime/tensor"
)

const (
	batch, in, hid, out, nbatch = 128, 784, 256, 10, 4
)

var (
	dev   = flag.String("device", "CPU", "the tick device to time")
	quick = flag.Bool("quick", false, "fewer samples (a smoke run)")
)

func main() {
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: mlpbench -device CPU DIR (DIR from bench/mlp_numpy.py --init)")
		os.Exit(2)
	}
	if err := run(flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "mlpbench:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := tensor.SetDefaultDevice(*dev); err != nil {
		return err
	}
	label := "tick " + *dev
	emit := func(k string, v float64) { fmt.Printf("mlp\t%s\t%s\t%.6g\n", label, k, v) }
	l1 := &nn.Linear{}
	l2 := &nn.Linear{}
	var err error
	for _, p := range []struct {
		dst   **tensor.Tensor
		name  string
		shape []int
	}{{&l1.Weight, "w1", []int{hid, in}}, {&l1.Bias, "b1", []int{hid}}, {&l2.Weight, "w2", []int{out, hid}}, {&l2.Bias, "b2", []int{out}}} {
		if *p.dst, err = readF32(dir, p.name, p.shape...); err != nil {
			return err
		}
		(*p.dst).RequiresGrad()
	}
	xs, err := readF32(dir, "x", nbatch, batch, in)
	if err != nil {
		return err
	}
	ys, err := readI32(filepath.Join(dir, "y.i32"), nbatch*batch)
	if err != nil {
		return err
	}
	type pair struct{ x, y *tensor.Tensor }
	var bs []pair
	for i := range nbatch {
		bs = append(bs, pair{xs.Slice(0, i, i+1).Reshape(batch, in).Contiguous().Realize(), tensor.FromInt32s(ys[i*batch : (i+1)*batch]).Realize()})
	}
	model := nn.NewSequential(l1, nn.ReLU(), l2)
	opt := optim.NewAdam(model.Parameters(), optim.AdamConfig{LR: 1e-3})
	step := tensor.JIT(func(in ...*tensor.Tensor) *tensor.Tensor {
		opt.ZeroGrad()
		loss := nn.CrossEntropy(model.Forward(in[0]), in[1])
		loss.Backward()
		opt.Step()
		return loss
	})
	d := tensor.Device(*dev)
	call := func(i int) *tensor.Tensor { return step.Call(bs[i%nbatch].x, bs[i%nbatch].y) }
	for i := range 10 {
		loss := call(i).Item()
		if i == 0 || i == 9 {
			emit(fmt.Sprintf("loss%d", i+1), loss)
		}
	}
	// Steps per sample so a sample lasts at least 50 ms.
	n := 1
	for {
		t0 := time.Now()
		for i := range n {
			call(i)
		}
		if err := d.Synchronize(); err != nil {
			return err
		}
		if time.Since(t0) >= 50*time.Millisecond || n >= 1<<16 {
			break
		}
		n *= 2
	}
	samples := 15
	if *quick {
		samples = 5
	}
	c0, w0 := cpuTime(), time.Now()
	var per []float64
	for range samples {
		t0 := time.Now()
		for i := range n {
			call(i)
		}
		if err := d.Synchronize(); err != nil {
			return err
		}
		per = append(per, time.Since(t0).Seconds()/float64(n))
		emit("sample_s_per_step", per[len(per)-1])
	}
	total := float64(samples * n)
	emit("cpu_s_per_step", (cpuTime()-c0).Seconds()/total)
	emit("wall_s_per_step", time.Since(w0).Seconds()/total)
	sort.Float64s(per)
	emit("kernels_per_step", float64(len(step.State().Kernels)))
	return nil
}

func readF32(dir, name string, shape ...int) (*tensor.Tensor, error) {
	b, err := os.ReadFile(filepath.Join(dir, name+".f32"))
	if err != nil {
		return nil, fmt.Errorf("%w (write the inputs with bench/mlp_numpy.py --init DIR)", err)
	}
	n := 1
	for _, s := range shape {
		n *= s
	}
	if len(b) != 4*n {
		return nil, fmt.Errorf("%s.f32 has %d bytes, want %d for %v float32", name, len(b), 4*n, shape)
	}
	return tensor.FromFloat32s(unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), shape...).Realize(), nil
}

func readI32(path string, n int) ([]int32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) != 4*n {
		return nil, fmt.Errorf("%s has %d bytes, want %d int32", path, len(b), n)
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n), nil
}
