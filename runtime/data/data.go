// Package data gives a training loop data without a network: seeded
// synthetic datasets (Spirals, Blobs) and loaders for small datasets in
// local files the user names (CSV, and MNIST's idx format, gzipped or
// not), as tensors ready for a model (features float32, labels int32
// class indices), split into fixed-size batches so a JIT'd training step
// sees one input signature.
package data

import (
	"fmt"
	"math/rand"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// Dataset is a set of labelled examples, kept on the host (X and Y) so
// batches can be drawn in any order, and copied to the default device by
// Tensors and Batches.
type Dataset struct {
	Name     string
	X        []float32 // examples, row-major: Len() rows of Features
	Y        []int32   // labels: class indices in [0, Classes)
	Features int
	Classes  int
	// Shape is the shape of one example when it is more than a row of
	// features (MNIST images: [28 28]); nil otherwise.
	Shape []int
}

// Len is the number of examples.
func (d *Dataset) Len() int { return len(d.Y) }

func (d *Dataset) String() string {
	return fmt.Sprintf("%s: %d examples, %d features, %d classes", d.Name, d.Len(), d.Features, d.Classes)
}

// Tensors returns all examples as X [Len, Features] float32 and Y [Len]
// int32 on the default device.
func (d *Dataset) Tensors() (x, y *tensor.Tensor) {
	return tensor.FromFloat32s(d.X, d.Len(), d.Features), tensor.FromInt32s(d.Y, d.Len())
}

// Batch is one batch: X [size, Features] float32, Y [size] int32.
type Batch struct {
	X, Y *tensor.Tensor
}

// Batches shuffles the examples with seed (a negative seed keeps their
// order) and cuts them into batches of size examples each, copied to the
// default device once. The last, partial batch is dropped, so every batch
// has the same shape and one JIT'd step takes them all.
func (d *Dataset) Batches(size int, seed int64) []Batch {
	if size <= 0 || size > d.Len() {
		panic(&Error{Op: "Batches", Msg: fmt.Sprintf("batch size %d: want 1 to the %d examples of %s", size, d.Len(), d.Name)})
	}
	order := d.order(seed)
	out := make([]Batch, 0, d.Len()/size)
	xs := make([]float32, size*d.Features)
	ys := make([]int32, size)
	for b := 0; b+size <= len(order); b += size {
		for i, e := range order[b : b+size] {
			copy(xs[i*d.Features:(i+1)*d.Features], d.X[e*d.Features:(e+1)*d.Features])
			ys[i] = d.Y[e]
		}
		out = append(out, Batch{X: tensor.FromFloat32s(xs, size, d.Features).Realize(), Y: tensor.FromInt32s(ys, size).Realize()})
	}
	return out
}

// order is 0..Len-1, shuffled with seed unless seed is negative.
func (d *Dataset) order(seed int64) []int {
	order := make([]int, d.Len())
	for i := range order {
		order[i] = i
	}
	if seed >= 0 {
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	return order
}

// Split shuffles the examples with seed and returns the first
// fraction·Len of them as train and the rest as test.
func (d *Dataset) Split(fraction float64, seed int64) (train, test *Dataset) {
	if fraction <= 0 || fraction >= 1 {
		panic(&Error{Op: "Split", Msg: fmt.Sprintf("fraction %v: want a share strictly between 0 and 1", fraction)})
	}
	order := d.order(seed)
	n := int(fraction * float64(d.Len()))
	return d.subset(order[:n], d.Name+" (train)"), d.subset(order[n:], d.Name+" (test)")
}

func (d *Dataset) subset(idx []int, name string) *Dataset {
	s := &Dataset{Name: name, Features: d.Features, Classes: d.Classes, Shape: d.Shape,
		X: make([]float32, 0, len(idx)*d.Features), Y: make([]int32, 0, len(idx))}
	for _, e := range idx {
		s.X = append(s.X, d.X[e*d.Features:(e+1)*d.Features]...)
		s.Y = append(s.Y, d.Y[e])
	}
	return s
}

// Error says why a dataset cannot be made or read: the operation, the
// file and line when there is one, and what to do.
type Error struct {
	Op   string
	Path string
	Line int // 1-based; 0 when not about a line
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	s := "data: " + e.Op
	if e.Path != "" {
		s += " " + e.Path
		if e.Line > 0 {
			s += fmt.Sprintf(":%d", e.Line)
		}
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }
