package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/device"
)

// Tensor is a lazy n-dimensional array on a device. Operations build a graph
// and return at once; Realize schedules and enqueues the kernels; reads
// (ToSlice, Float32s, Item, String) synchronize. Operations that cannot
// proceed (shape mismatch, bad operand) panic with an *OpError, which a
// notebook shows as the cell's error. A Tensor is not safe for concurrent use.
type Tensor struct {
	l  *lazy
	ag *autograd // gradient tracking (autograd.go): nil unless it needs a gradient
}

// OpError is the panic value of a tensor operation that cannot proceed: it
// names the operation, the operand shapes and what to do.
type OpError struct {
	Op     string
	Shapes [][]int
	Msg    string
}

func (e *OpError) Error() string {
	s := "tensor: " + e.Op
	for i, sh := range e.Shapes {
		if i == 0 {
			s += " of "
		} else {
			s += " and "
		}
		s += fmt.Sprint(sh)
	}
	return s + ": " + e.Msg
}

func opPanic(op, msg string, shapes ...[]int) {
	panic(&OpError{Op: op, Shapes: shapes, Msg: msg})
}

// Shape returns a copy of the tensor's shape.
func (t *Tensor) Shape() []int { return append([]int(nil), t.l.shape...) }

// DType returns the element type.
func (t *Tensor) DType() DType { return t.l.dtype }

// Device returns the name of the tensor's device.
func (t *Tensor) Device() string { return t.l.dev.name }

// Numel is the number of elements.
func (t *Tensor) Numel() int { return prod(t.l.shape) }

// Ndim is the number of axes.
func (t *Tensor) Ndim() int { return len(t.l.shape) }

func checkShape(op string, shape []int) []int {
	for _, n := range shape {
		if n < 0 {
			opPanic(op, "negative dimension; sizes must be ≥ 0", shape)
		}
	}
	return append([]int(nil), shape...)
}

// fromBytes creates a realized tensor by copying raw element bytes.
func fromBytes(d *Dev, raw []byte, shape []int, dt DType) *Tensor {
	b := mustBuffer(d, dt, prod(shape))
	b.shape = shape
	copyIn(b, raw)
	return &Tensor{l: &lazy{kind: kBuffer, shape: shape, dtype: dt, dev: d, buf: b}}
}

func sliceBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// FromFloat32s creates a float32 tensor from data with the given shape (a
// 1-D tensor when shape is empty). len(data) must equal the shape's product.
func FromFloat32s(data []float32, shape ...int) *Tensor {
	return fromGo("FromFloat32s", sliceBytes(data), len(data), shape, Float32)
}

// FromFloat64s creates a float64 tensor (see FromFloat32s).
func FromFloat64s(data []float64, shape ...int) *Tensor {
	return fromGo("FromFloat64s", sliceBytes(data), len(data), shape, Float64)
}

// FromInt32s creates an int32 tensor (see FromFloat32s).
func FromInt32s(data []int32, shape ...int) *Tensor {
	return fromGo("FromInt32s", sliceBytes(data), len(data), shape, Int32)
}

// FromBools creates a bool tensor (see FromFloat32s).
func FromBools(data []bool, shape ...int) *Tensor {
	return fromGo("FromBools", sliceBytes(data), len(data), shape, Bool)
}

// FromSlice creates a tensor from a []float32, []float64, []int32, []bool,
// []int or []float64-convertible slice with the given shape.
func FromSlice(data any, shape ...int) *Tensor {
	switch s := data.(type) {
	case []float32:
		return FromFloat32s(s, shape...)
	case []float64:
		return FromFloat64s(s, shape...)
	case []int32:
		return FromInt32s(s, shape...)
	case []bool:
		return FromBools(s, shape...)
	case []int:
		v := make([]int32, len(s))
		for i, x := range s {
			v[i] = int32(x)
		}
		return FromInt32s(v, shape...)
	}
	panic(&OpError{Op: "FromSlice", Msg: fmt.Sprintf("unsupported data type %T; pass []float32, []float64, []int32, []int or []bool", data)})
}

func fromGo(op string, raw []byte, n int, shape []int, dt DType) *Tensor {
	defer graphTimer(monoNow())
	if len(shape) == 0 {
		shape = []int{n}
	}
	shape = checkShape(op, shape)
	if prod(shape) != n {
		opPanic(op, fmt.Sprintf("%d elements do not fill the shape (%d needed)", n, prod(shape)), shape)
	}
	return fromBytes(defaultDev(), raw, shape, dt)
}

// Scalar is a 0-d float32 tensor holding v.
func Scalar(v float64) *Tensor { return Full(v) }

// Full is a float32 tensor of shape filled with v (lazy: a broadcast constant).
func Full(v float64, shape ...int) *Tensor { return FullOf(v, Float32, shape...) }

// FullOf is Full with an explicit dtype.
func FullOf(v float64, dt DType, shape ...int) *Tensor {
	defer graphTimer(monoNow())
	shape = checkShape("Full", shape)
	return &Tensor{l: &lazy{kind: kConst, shape: shape, dtype: dt, dev: defaultDev(), value: v}}
}

// Zeros is a float32 tensor of zeros.
func Zeros(shape ...int) *Tensor { return Full(0, shape...) }

// Ones is a float32 tensor of ones.
func Ones(shape ...int) *Tensor { return Full(1, shape...) }

// Arange is the float32 vector [0, 1, ..., n-1].
func Arange(n int) *Tensor {
	v := make([]float32, max(n, 0))
	for i := range v {
		v[i] = float32(i)
	}
	return FromFloat32s(v, len(v))
}

// Eye is the n×n float32 identity matrix.
func Eye(n int) *Tensor {
	v := make([]float32, n*n)
	for i := 0; i < n; i++ {
		v[i*n+i] = 1
	}
	return FromFloat32s(v, n, n)
}

// readInto synchronizes, makes t contiguous and copies its bytes into dst
// (len(dst) = Numel × dtype size) with one copy from device memory
// (Allocator.CopyOut).
func (t *Tensor) readInto(dst []byte) {
	buf, off := t.readSource()
	copyOut(dst, buf, off)
}

// readSource synchronizes and makes t contiguous: the buffer that holds
// its bytes, from byte off on.
func (t *Tensor) readSource() (*Buffer, int) {
	if t.l.base().kind != kBuffer {
		t.Realize()
	}
	c := t
	if t.l.kind == kView && !denseView(*t.l.view) {
		c = (&Tensor{l: contiguous(t.l)}).Realize()
	}
	base := c.l.base()
	noteCopyOut(base.buf)
	if err := base.dev.Synchronize(); err != nil {
		panic(err)
	}
	off := 0
	if c.l.kind == kView {
		off = c.l.view.Offset * c.l.dtype.Size()
	}
	return base.buf, off
}

// Reading results back costs one copy: the slice a read returns is the
// destination of the copy out of device memory (readInto), in chunks of
// copyChunk so the garbage collector can stop the goroutine between them
// (one memmove of 32 MB cannot be preempted, and the collector's workers
// spin waiting for it).

// copyChunk is the most bytes one uninterruptible copy moves.
const copyChunk = 1 << 20

// copyOutChunked copies len(dst) bytes from mem at off with copyOut, a
// chunk at a time.
func copyOutChunked(copyOut func([]byte, device.Memory, int) error, dst []byte, mem device.Memory, off int) error {
	for i := 0; i < len(dst); i += copyChunk {
		j := min(i+copyChunk, len(dst))
		if err := copyOut(dst[i:j], mem, off+i); err != nil {
			return err
		}
	}
	return nil
}

// Float32s synchronizes and returns the elements as float32 (converting on
// the device first when t is of another dtype), with one copy.
func (t *Tensor) Float32s() []float32 {
	if t.l.dtype != Float32 {
		return t.Cast(Float32).Float32s()
	}
	return readSlice[float32](t)
}

// Float64s synchronizes and returns the elements as float64 (converting on
// the device first when t is of another dtype), with one copy.
func (t *Tensor) Float64s() []float64 {
	if t.l.dtype != Float64 {
		return t.Cast(Float64).Float64s()
	}
	return readSlice[float64](t)
}

// Int32s synchronizes and returns the elements as int32 (converting on
// the device first when t is of another dtype), with one copy.
func (t *Tensor) Int32s() []int32 {
	if t.l.dtype != Int32 {
		return t.Cast(Int32).Int32s()
	}
	return readSlice[int32](t)
}

// Bools synchronizes and returns the elements as bool (x != 0), with one
// copy.
func (t *Tensor) Bools() []bool {
	if t.l.dtype != Bool {
		return t.Cast(Bool).Bools()
	}
	out := readSlice[bool](t)
	for i, b := range sliceBytes(out) { // one byte per element: make each 0 or 1 before Go reads it as a bool
		if b > 1 {
			sliceBytes(out)[i] = 1
		}
	}
	return out
}

// ToSlice synchronizes and returns a copy of the data as a Go slice of the
// tensor's dtype: []float32, []float64, []int32 or []bool (row-major).
func (t *Tensor) ToSlice() any {
	switch t.l.dtype {
	case Float64:
		return t.Float64s()
	case Int32:
		return t.Int32s()
	case Bool:
		return t.Bools()
	}
	return t.Float32s()
}

// Item synchronizes and returns the single element of a one-element tensor.
func (t *Tensor) Item() float64 {
	if t.Numel() != 1 {
		opPanic("Item", fmt.Sprintf("needs exactly one element, has %d; reduce first (Sum, Max) or index with Shrink", t.Numel()), t.l.shape)
	}
	return t.first()
}

// At synchronizes and returns the element at idx (one index per axis,
// each in range), reading only that element.
func (t *Tensor) At(idx ...int) float64 {
	shape := t.l.shape
	if len(idx) != len(shape) {
		opPanic("At", fmt.Sprintf("needs %d indices, one per axis, got %d", len(shape), len(idx)), shape)
	}
	r := make([][2]int, len(idx))
	for a, i := range idx {
		if i < 0 || i >= shape[a] {
			opPanic("At", fmt.Sprintf("index %d is out of range for axis %d of size %d", i, a, shape[a]), shape)
		}
		r[a] = [2]int{i, i + 1}
	}
	if len(r) == 0 {
		return t.first()
	}
	return t.Shrink(r).first()
}

// first reads t's first element in its own dtype (no conversion kernel)
// and converts it on the host.
func (t *Tensor) first() float64 {
	var b [8]byte
	n := t.l.dtype.Size()
	if t.Numel() > 1 {
		t = t.Flatten().Shrink([][2]int{{0, 1}})
	}
	t.readInto(b[:n])
	switch t.l.dtype {
	case Float64:
		return math.Float64frombits(binary.NativeEndian.Uint64(b[:]))
	case Int32:
		return float64(int32(binary.NativeEndian.Uint32(b[:])))
	case Bool:
		if b[0] != 0 {
			return 1
		}
		return 0
	}
	return float64(math.Float32frombits(binary.NativeEndian.Uint32(b[:])))
}

// To returns a copy of t on the named device (t itself when already
// there): a transfer, counted and timed (see transfer.go). It waits for
// the work a host device has queued on t; a JIT captures it like a kernel
// launch and replays it.
func (t *Tensor) To(device string) *Tensor {
	if t.ag != nil {
		return gradTo(t, device)
	}
	d := MustDevice(device)
	if d == t.l.dev {
		return t
	}
	c := t
	if t.l.base().kind != kBuffer || t.l.kind == kView && !denseView(*t.l.view) {
		c = (&Tensor{l: contiguous(t.l)}).Realize()
	}
	base := c.l.base()
	off := 0
	if c.l.kind == kView {
		off = c.l.view.Offset * c.l.dtype.Size()
	}
	n := prod(c.l.shape) * c.l.dtype.Size()
	b := mustBuffer(d, t.l.dtype, prod(c.l.shape))
	b.shape = t.Shape()
	noteCopyOut(base.buf)
	transfer(b, base.buf, off, n)
	recordTransferCapture(b, base.buf, off, n)
	return &Tensor{l: &lazy{kind: kBuffer, shape: t.Shape(), dtype: t.l.dtype, dev: d, buf: b}}
}
