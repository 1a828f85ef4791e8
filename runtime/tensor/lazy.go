package tensor

// The lazy graph. A Tensor points at a lazy node; nothing runs until Realize.
// Base nodes (buffer, const, elementwise, reduce) produce a contiguous array of
// their shape; view nodes read a base through a View. Movement ops on an
// unrealized elementwise node are pushed into its sources, so elementwise
// chains stay fusable however they are reshaped or transposed.

type lazyKind uint8

const (
	kBuffer lazyKind = iota // realized: buf holds the data
	kConst                  // every element is value
	kElem                   // op applied to srcs (all of shape)
	kReduce                 // rop over axes of srcs[0]; shape keeps the axes as 1
	kView                   // srcs[0] (a base) read through view
)

type lazy struct {
	kind  lazyKind
	dtype DType
	op    Op       // kElem
	rop   ReduceOp // kReduce
	// keep (kElem) makes the node a kernel of its own whose buffer its
	// consumers read, instead of inlining it into each of them: for a value
	// that is costly to compute and read twice (softmax's exp).
	keep bool
	// dst (kElem) is the buffer the node's kernel writes into instead of a
	// new one: an assignment (assign.go).
	dst   *Buffer
	shape []int
	dev   *Dev
	srcs  []*lazy
	value float64 // kConst
	axes  []int   // kReduce
	view  *View   // kView (nil otherwise: 80 bytes fewer in every other node; newView)
	buf   *Buffer // kBuffer
	// inl holds srcs for elementwise nodes of up to three sources, so a
	// node is one allocation (newElem); realizing a node clears it with
	// the rest of the node.
	inl [3]*lazy
}

// tensorNode is a Tensor and its lazy node in one allocation.
type tensorNode struct {
	t Tensor
	l lazy
}

// newElem returns a tensor of a new elementwise node op(srcs) of shape
// (shared, never modified) and dtype dt on dev.
func newElem(op Op, dt DType, shape []int, dev *Dev, srcs ...*lazy) *Tensor {
	return initElem(&tensorNode{}, op, dt, shape, dev, srcs...)
}

// initElem is newElem in n, a new (zero) node; it sets the fields one by
// one (see setNumber).
func initElem(n *tensorNode, op Op, dt DType, shape []int, dev *Dev, srcs ...*lazy) *Tensor {
	n.l.kind, n.l.shape, n.l.dtype, n.l.dev, n.l.op = kElem, shape, dt, dev, op
	if len(srcs) <= len(n.l.inl) {
		n.l.srcs = n.l.inl[:len(srcs):len(srcs)]
		copy(n.l.srcs, srcs)
	} else {
		n.l.srcs = append([]*lazy(nil), srcs...)
	}
	n.t.l = &n.l
	return &n.t
}

func (l *lazy) base() *lazy {
	if l.kind == kView {
		return l.srcs[0]
	}
	return l
}

// movement is one movement op, applied to views or pushed through graphs.
type movement struct {
	kind   byte // 'r' reshape, 'p' permute, 'e' expand, 's' shrink, 'f' flip, 'd' pad
	shape  []int
	order  []int
	ranges [][2]int
	axes   []int
}

func (m movement) outShape(old []int) []int {
	switch m.kind {
	case 'r', 'e':
		return append([]int(nil), m.shape...)
	case 'p':
		s := make([]int, len(m.order))
		for i, o := range m.order {
			s[i] = old[o]
		}
		return s
	case 's':
		s := make([]int, len(old))
		for d, r := range m.ranges {
			s[d] = r[1] - r[0]
		}
		return s
	case 'd':
		s := make([]int, len(old))
		for d, r := range m.ranges {
			s[d] = old[d] + r[0] + r[1]
		}
		return s
	}
	return append([]int(nil), old...)
}

func (m movement) applyView(v View) (View, bool) {
	switch m.kind {
	case 'r':
		return v.Reshape(m.shape)
	case 'p':
		return v.Permute(m.order), true
	case 'e':
		return v.Expand(m.shape), true
	case 's':
		return v.Shrink(m.ranges), true
	case 'f':
		return v.Flip(m.axes), true
	case 'd':
		return v.Pad(m.ranges), true
	}
	return v, false
}

// move applies m to l, returning a new node; memo shares work across a DAG.
func move(l *lazy, m movement, memo map[*lazy]*lazy) *lazy {
	if r := memo[l]; r != nil {
		return r
	}
	shape := m.outShape(l.shape)
	var r *lazy
	switch {
	case l.kind == kConst && m.kind != 'd':
		r = &lazy{kind: kConst, shape: shape, dtype: l.dtype, dev: l.dev, value: l.value}
	case l.kind == kElem && m.kind != 'd' && !l.keep:
		srcs := make([]*lazy, len(l.srcs))
		for i, s := range l.srcs {
			srcs[i] = move(s, m, memo)
		}
		r = &lazy{kind: kElem, shape: shape, dtype: l.dtype, dev: l.dev, op: l.op, srcs: srcs}
	case l.kind == kView:
		if v, ok := m.applyView(*l.view); ok {
			r = newView(shape, l.dtype, l.dev, l.srcs[0], v)
		} else {
			r = viewOfBase(contiguous(l), m, shape) // the layout needs a copy first
		}
	default:
		r = viewOfBase(l, m, shape)
	}
	memo[l] = r
	return r
}

// viewOfBase reads base l (a node producing a contiguous array) through m.
func viewOfBase(l *lazy, m movement, shape []int) *lazy {
	v, _ := m.applyView(contiguousView(l.shape)) // always expressible on a contiguous view
	if v.IsContiguous() && equalInts(v.Shape, l.shape) {
		return l
	}
	return newView(shape, l.dtype, l.dev, l, v)
}

// viewNode is a view node with its View and source slice, in one
// allocation; other nodes carry no View (an eager op's two nodes were 448
// bytes, a third of it two empty Views).
type viewNode struct {
	l   lazy
	v   View
	src [1]*lazy
}

// newView is a view node of shape reading base through v.
func newView(shape []int, dt DType, dev *Dev, base *lazy, v View) *lazy {
	n := &viewNode{v: v, src: [1]*lazy{base}}
	n.l = lazy{kind: kView, shape: shape, dtype: dt, dev: dev, srcs: n.src[:], view: &n.v}
	return &n.l
}

// contiguous is a copy of l into a fresh contiguous base (an identity cast).
func contiguous(l *lazy) *lazy {
	return &lazy{kind: kElem, shape: l.shape, dtype: l.dtype, dev: l.dev, op: OpCast, srcs: []*lazy{l}}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// graphTimer accounts graph construction time: defer graphTimer(monoNow()).
func graphTimer(t0 stamp) { addPhaseAt(&counters.graphNS, t0) }
