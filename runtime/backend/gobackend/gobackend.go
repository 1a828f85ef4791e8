// Package gobackend is the GO device: the pure-Go reference backend.
// Compile turns a Kernel into a tree of block closures (go_eval.go) once;
// Run evaluates the tree block by block over its range of output elements. The iteration space is permuted so
// kept axes come first and reduced axes last (position g = out*R + r), and
// adjacent axes that every load walks contiguously are merged, so a load that
// reads its buffer in order becomes a plain subslice.
package gobackend

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
	"github.com/tick-kernel/tick/runtime/ir"
)

// goBlock is the number of elements each closure fills per call: large enough
// to amortize the call, small enough that a kernel's blocks stay in L1.
const goBlock = 512

func init() { device.Register("GO", Backend{}) }

// Backend is the GO backend: always available, one device.
type Backend struct{}

// Available is always nil: the GO backend needs nothing but Go.
func (Backend) Available() error { return nil }

// Open returns the GO device.
func (Backend) Open(ordinal int) (device.Device, error) {
	if ordinal != 0 {
		return nil, fmt.Errorf("the GO backend has one device, GO (not GO:%d)", ordinal)
	}
	return goDevice{}, nil
}

// goDevice is the GO device: Go-heap memory, kernels compiled to closures,
// run on host threads.
type goDevice struct{}

// Describe says what GO kernels are, and matmul's micro-kernel.
func (goDevice) Describe() string {
	return "GO (pure-Go closures; matmul: " + chooseKernel().name + ")"
}

// Info says whether matmul fuses multiply-adds (as the CPU device does by
// default where the machine has FMA; never with TICK_FMA=0).
func (goDevice) Info() device.Info {
	mk := chooseKernel()
	return device.Info{Name: "GO", Backend: "Go closures (matmul: " + mk.name + ")", MatmulFMA: mk.strided, Computes: true}
}

// AllocCap is Go memory for the runtime's pool (typed when Resized).
func (goDevice) AllocCap(bytes int) (device.Resizable, error) { return newGoMemory(bytes), nil }

func (goDevice) InlineSmall() bool { return true }

func (goDevice) Queue() device.Queue { return host.Queue{} }

func (goDevice) Alloc(dt ir.DType, n int) (device.Memory, error) {
	m := newGoMemory(n * dt.Size())
	m.Resize(dt, n)
	return m, nil
}

// Free does nothing: the garbage collector frees Go memory.
func (goDevice) Free(device.Memory) {}

func (goDevice) CopyIn(dst device.Memory, off int, src []byte) error {
	return host.CopyIn(dst, off, src)
}

func (goDevice) CopyOut(dst []byte, src device.Memory, off int) error {
	return host.CopyOut(dst, src, off)
}

// Render compiles k (cheap, in memory) and returns its description.
func (d goDevice) Render(k *ir.Kernel) (string, error) {
	p, err := d.Compile(k)
	if err != nil {
		return "", err
	}
	return p.Source(), nil
}

// newGoMemory allocates size bytes, 8-byte aligned for every dtype, with no
// typed view yet (Resize makes one).
func newGoMemory(size int) *goMemory {
	words := make([]uint64, (size+7)/8)
	m := &goMemory{}
	if len(words) > 0 {
		m.full = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), size)
	}
	return m
}

// goMemory is Go-heap memory with its typed view.
type goMemory struct {
	full  []byte   // all of the allocation
	b     []byte   // the buffer's bytes: full[:n*dtype size]
	typed any      // []float32, []float64, []int32 or []bool over b
	dt    ir.DType // typed's dtype
	n     int      // and length
}

func (m *goMemory) Size() int     { return len(m.b) }
func (m *goMemory) Bytes() []byte { return m.b }
func (m *goMemory) Cap() int      { return len(m.full) }

// Resize makes m a buffer of n elements of dt (within its allocation), for
// the device pool. The typed view is kept when dt and n are the previous
// ones (boxing a new slice in typed allocates).
func (m *goMemory) Resize(dt ir.DType, n int) {
	m.b = m.full[:n*dt.Size()]
	if m.typed != nil && m.dt == dt && m.n == n {
		return
	}
	m.dt, m.n = dt, n
	p := unsafe.Pointer(unsafe.SliceData(m.full))
	switch dt {
	case ir.Float32:
		m.typed = unsafe.Slice((*float32)(p), n)
	case ir.Float64:
		m.typed = unsafe.Slice((*float64)(p), n)
	case ir.Int32:
		m.typed = unsafe.Slice((*int32)(p), n)
	case ir.Bool:
		m.typed = unsafe.Slice((*bool)(p), n)
	}
}

// typedView returns a typed slice over host memory.
func typedView(m device.Memory, dt ir.DType, n int) any {
	if g, ok := m.(*goMemory); ok {
		return g.typed
	}
	b := m.(device.Host).Bytes()
	p := unsafe.Pointer(unsafe.SliceData(b))
	switch dt {
	case ir.Float32:
		return unsafe.Slice((*float32)(p), n)
	case ir.Float64:
		return unsafe.Slice((*float64)(p), n)
	case ir.Int32:
		return unsafe.Slice((*int32)(p), n)
	}
	return unsafe.Slice((*bool)(p), n)
}

// goLoad is one load of a compiled kernel, in the permuted iteration space.
type goLoad struct {
	buf     int
	strides []int
	offset  int
	mask    [][2]int
	dense   bool // reads buffer[offset+g]: a subslice, no gather
	slot    int  // scratch slot for the gathered block
}

type goProgram struct {
	k      *ir.Kernel
	shape  []int   // permuted, merged iteration shape
	lane   *goLane // non-nil: a lane fold (go_lanes.go)
	loads  []goLoad
	slots  []ir.DType
	nmemo  int
	run    func(st *runState, start, end int)
	states sync.Pool
	src    string
	dims   device.Dims
	work   int // per output: Work
}

// runState is one worker's scratch for one Run call (pooled).
type runState struct {
	p      *goProgram
	bufs   []any
	scr    []any
	idx    [][]int
	valid  [][]bool
	coords []int
	memoG  []int
	memoN  []int
	memoV  []any
	acc    []float64 // a lane fold's accumulators
	acc32  []float32 // a float32 lane fold's
}

func (goDevice) Compile(k *ir.Kernel) (device.Program, error) {
	p := &goProgram{k: k, dims: host.Dims(k), work: k.ReduceSize()}
	if g := matchGemm(k); g != nil {
		p.work = host.GemmWork(g.K)
		p.run = g.run
		b := "packed B"
		if g.direct() {
			b = "B read in place"
		}
		p.src = fmt.Sprintf("// GO backend: tiled float32 GEMM (%s micro-kernel, packed A, %s)\n", g.mk.name, b) + k.Key()
		return p, nil
	}
	c := &goCompiler{p: p, memo: map[*ir.Node]any{}, refs: map[*ir.Node]int{}, loadIdx: map[*ir.Node]int{}}
	c.layout()
	ir.Walk(k.Expr, func(n *ir.Node) {
		for _, s := range n.Src {
			c.refs[s]++
		}
	})
	root := c.node(k.Expr)
	if c.err != nil {
		return nil, c.err
	}
	R := k.ReduceSize()
	switch dt := k.Bufs[0].DType; {
	case p.lane != nil && dt == ir.Float32:
		p.run = makeLaneRun32(root.(evalFn[float32]), k.Reduce, p.lane, p.denseLoad())
	case p.lane != nil && dt == ir.Float64:
		p.run = makeLaneRun(root.(evalFn[float64]), k.Reduce, p.lane)
	case p.lane != nil && dt == ir.Int32:
		p.run = makeLaneRun(root.(evalFn[int32]), k.Reduce, p.lane)
	case dt == ir.Float32 && k.Reduce != ir.ReduceNone:
		p.run = makeRun32(root.(evalFn[float32]), k.Reduce, R, p.denseLoad())
	case dt == ir.Float32:
		p.run = runElem(root.(evalFn[float32]))
	case dt == ir.Float64:
		p.run = makeRun(root.(evalFn[float64]), k.Reduce, R)
	case dt == ir.Int32:
		p.run = makeRun(root.(evalFn[int32]), k.Reduce, R)
	case dt == ir.Bool:
		if k.Reduce != ir.ReduceNone {
			return nil, fmt.Errorf("GO backend: %s reduces bool values; cast to int32 first", k.Name)
		}
		p.run = runElem(root.(evalFn[bool]))
	}
	p.src = p.describe()
	return p, nil
}

func (p *goProgram) Source() string { return p.src }

// Dims is the kernel's host grid.
func (p *goProgram) Dims() device.Dims { return p.dims }

// Work is the elements folded into each output (a GEMM's: host.GemmWork).
func (p *goProgram) Work() int { return p.work }

func (p *goProgram) Run(bufs []device.Memory, start, end int) {
	st, _ := p.states.Get().(*runState)
	if st == nil {
		st = p.newState()
	}
	for i, m := range bufs {
		st.bufs[i] = typedView(m, p.k.Bufs[i].DType, p.k.Bufs[i].Size)
	}
	for i := range st.memoG {
		st.memoG[i] = -1
	}
	p.run(st, start, end)
	clear(st.bufs)
	p.states.Put(st)
}

func (p *goProgram) newState() *runState {
	st := &runState{p: p, bufs: make([]any, len(p.k.Bufs)), coords: make([]int, len(p.shape)),
		idx: make([][]int, len(p.loads)), valid: make([][]bool, len(p.loads)),
		memoG: make([]int, p.nmemo), memoN: make([]int, p.nmemo), memoV: make([]any, p.nmemo)}
	for i, dt := range p.slots {
		switch dt {
		case ir.Float32:
			st.scr = append(st.scr, make([]float32, goBlock))
		case ir.Float64:
			st.scr = append(st.scr, make([]float64, goBlock))
		case ir.Int32:
			st.scr = append(st.scr, make([]int32, goBlock))
		default:
			st.scr = append(st.scr, make([]bool, goBlock))
		}
		_ = i
	}
	for i, l := range p.loads {
		if !l.dense && l.mask != nil { // unmasked gathers walk runs (gatherRuns)
			st.idx[i] = make([]int, goBlock)
			st.valid[i] = make([]bool, goBlock)
		}
	}
	return st
}

// prepare computes the addresses of every masked gathering load for [g0,
// g0+n) (an unmasked one is read by runs when evaluated: gatherRuns).
func (st *runState) prepare(g0, n int) {
	p := st.p
	for li := range p.loads {
		l := &p.loads[li]
		if l.dense || l.mask == nil {
			continue
		}
		c := st.coords
		rem := g0
		for d := len(p.shape) - 1; d >= 0; d-- {
			if p.shape[d] > 0 {
				c[d] = rem % p.shape[d]
				rem /= p.shape[d]
			}
		}
		addr := l.offset
		for d, x := range c {
			addr += x * l.strides[d]
		}
		idx := st.idx[li][:n]
		valid := st.valid[li]
		last := len(p.shape) - 1
		for i := range idx {
			idx[i] = addr
			if valid != nil {
				ok := true
				for d, x := range c {
					if x < l.mask[d][0] || x >= l.mask[d][1] {
						ok = false
						break
					}
				}
				valid[i] = ok
			}
			d := last
			c[d]++
			addr += l.strides[d]
			for c[d] == p.shape[d] && d > 0 {
				addr -= l.strides[d] * p.shape[d]
				c[d] = 0
				d--
				c[d]++
				addr += l.strides[d]
			}
		}
	}
}

func runElem[T any](root evalFn[T]) func(st *runState, start, end int) {
	return func(st *runState, start, end int) {
		o := st.bufs[0].([]T)
		for g := start; g < end; g += goBlock {
			n := min(goBlock, end-g)
			st.prepare(g, n)
			d := o[g : g+n]
			if v := root(st, g, n, d); &v[0] != &d[0] {
				copy(d, v)
			}
		}
	}
}

func makeRun[T num](root evalFn[T], rop ir.ReduceOp, R int) func(st *runState, start, end int) {
	if rop == ir.ReduceNone {
		return runElem(root)
	}
	init := 0.0
	switch {
	case rop == ir.ReduceMax:
		init = math.Inf(-1)
	case rop == ir.ReduceMin:
		init = math.Inf(1)
	}
	return func(st *runState, start, end int) {
		o := st.bufs[0].([]T)
		if R == 0 {
			for i := start; i < end; i++ {
				o[i] = T(clampInit[T](init))
			}
			return
		}
		foldBlocks(st, root, start, end, R, init, func(acc float64, v []T) float64 { return foldSeg(rop, acc, v) },
			func(oi int, acc float64) { o[oi] = T(clampInit[T](acc)) })
	}
}

// foldBlocks folds the R values of each output in [start, end) as root
// evaluates them, a block of up to goBlock positions at a time, and stores
// each output's accumulator.
func foldBlocks[T any, A any](st *runState, root evalFn[T], start, end, R int, init A, fold func(A, []T) A, store func(int, A)) {
	oi, r, acc := start, 0, init
	gEnd := end * R
	for g := start * R; g < gEnd; g += goBlock {
		n := min(goBlock, gEnd-g)
		st.prepare(g, n)
		v := root(st, g, n, nil)
		for len(v) > 0 {
			take := min(len(v), R-r)
			acc = fold(acc, v[:take])
			r += take
			v = v[take:]
			if r == R {
				store(oi, acc)
				oi, r, acc = oi+1, 0, init
			}
		}
	}
}

// makeRun32 is makeRun for float32 folds: float32 accumulators (rounded
// at each step, as the reference and the CPU device), fold.go's folds, and
// a kernel that only reads one buffer in order folds it in place.
func makeRun32(root evalFn[float32], rop ir.ReduceOp, R int, dense *goLoad) func(st *runState, start, end int) {
	init := init32(rop)
	return func(st *runState, start, end int) {
		o := st.bufs[0].([]float32)
		if R == 0 {
			for i := start; i < end; i++ {
				o[i] = init
			}
			return
		}
		if dense != nil && rop == ir.ReduceSum {
			src := st.bufs[dense.buf].([]float32)
			b := dense.offset + start*R
			sumRows32(o[start:end], src[b:b+(end-start)*R], R)
			return
		}
		if dense != nil {
			src := st.bufs[dense.buf].([]float32)
			if b := dense.offset + start*R; foldRowsAny32(rop, o[start:end], src[b:b+(end-start)*R], R) {
				return
			}
			for oi := start; oi < end; oi++ {
				b := dense.offset + oi*R
				o[oi] = foldSeg32(rop, init, src[b:b+R])
			}
			return
		}
		foldBlocks(st, root, start, end, R, init, func(acc float32, v []float32) float32 { return foldSeg32(rop, acc, v) },
			func(oi int, acc float32) { o[oi] = acc })
	}
}

// denseLoad is the load of a kernel whose expression is one load read in
// order (position g of the iteration is element offset+g) of the output's
// dtype, else nil.
func (p *goProgram) denseLoad() *goLoad {
	if p.k.Expr.Op != ir.OpLoad || len(p.loads) != 1 || !p.loads[0].dense || p.k.Expr.DType != p.k.Bufs[0].DType {
		return nil
	}
	return &p.loads[0]
}

// clampInit maps ±Inf accumulators of empty or integer folds into range.
func clampInit[T num](v float64) float64 {
	var z T
	if _, isInt := any(z).(int32); isInt {
		return math.Max(math.MinInt32, math.Min(math.MaxInt32, v))
	}
	return v
}

func foldSeg[T num](rop ir.ReduceOp, acc float64, seg []T) float64 {
	switch rop {
	case ir.ReduceSum:
		for _, x := range seg {
			acc += float64(x)
		}
	case ir.ReduceMax: // as the C renderer's tick_max(acc, x): the first NaN wins, ties take x
		for _, x := range seg {
			if f := float64(x); !(acc > f || acc != acc) {
				acc = f
			}
		}
	case ir.ReduceMin:
		for _, x := range seg {
			if f := float64(x); !(acc < f || acc != acc) {
				acc = f
			}
		}
	}
	return acc
}

func (p *goProgram) describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "// GO backend closure program for %s\n", p.k.Name)
	if p.lane != nil {
		fmt.Fprintf(&sb, "// lane fold in memory order: %d rows × %d reduced × %d lanes (merged shape %v), blocks of %d\n", p.lane.lead, p.lane.K, p.lane.W, p.shape, goBlock)
	} else {
		fmt.Fprintf(&sb, "// iteration shape (kept axes, then reduced; merged) %v, blocks of %d\n", p.shape, goBlock)
	}
	for i, l := range p.loads {
		kind := "gather"
		if l.dense {
			kind = "subslice"
		}
		fmt.Fprintf(&sb, "// load %d: b%d offset %d strides %v mask %v (%s)\n", i, l.buf, l.offset, l.strides, l.mask, kind)
	}
	sb.WriteString(p.k.Key())
	return sb.String()
}

// FoldLanes is the number of interleaved partials a long sum is split
// into (device.LaneFolder): the CPU device's (render.Tile), so the runtime
// restructures reductions the same way on both and their float32 sums are
// the same bits.
func (goDevice) FoldLanes() int { return 64 }
