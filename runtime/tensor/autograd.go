package tensor

// Reverse-mode automatic differentiation. A tensor that RequiresGrad, and
// every tensor computed from one, carries an autograd record: the
// operands it was computed from and how to turn a gradient of the result
// into gradients of those operands. Backward walks the records from a
// scalar loss back to the leaves in reverse topological order, building
// each gradient with ordinary tensor operations on the forward pass's
// lazy values, so gradients are lazy tensors that fuse and schedule like
// everything else; nothing is computed until they are realized (an
// optimizer's Step realizes them all in one schedule).
//
// The records are kept beside the lazy graph, not in it: realizing a
// tensor turns its lazy node into a buffer, and a gradient rule reads the
// forward values through whatever the node is by then (an expression or
// its buffer). Gradients of gradients are not recorded: the rules run on
// detached tensors.

import "fmt"

// autograd is a tensor's gradient record.
type autograd struct {
	// requires marks a tensor whose gradient Backward keeps (a leaf that
	// RequiresGrad was called on, or a computed one).
	requires bool
	grad     *Tensor // the accumulated gradient of a kept tensor
	op       string  // the operation that made it ("" for a leaf)
	// parents are the operands that carry gradients, by operand position
	// (nil where an operand does not); back turns the result's gradient
	// into one per parent (nil where there is none).
	parents []*Tensor
	back    func(g *Tensor) []*Tensor
}

// RequiresGrad marks t as a leaf whose gradient Backward computes and Grad
// returns, and returns t. Tensors computed from t record how they were
// computed until Backward has run. t must be a float tensor.
func (t *Tensor) RequiresGrad() *Tensor {
	if !t.l.dtype.IsFloat() {
		opPanic("RequiresGrad", fmt.Sprintf("needs a float tensor, this one is %s: gradients of integers and booleans are not defined (Cast it to Float32 first)", t.l.dtype), t.l.shape)
	}
	if t.ag == nil {
		t.ag = &autograd{}
	}
	t.ag.requires = true
	return t
}

// IsRequiringGrad reports whether t's gradient is kept by Backward.
func (t *Tensor) IsRequiringGrad() bool { return t.ag != nil && t.ag.requires }

// Tracked reports whether t records how it was computed for Backward (it
// requires a gradient, or was computed from a tensor that does).
func (t *Tensor) Tracked() bool { return t.ag != nil }

// Grad is the gradient Backward accumulated for t (a lazy tensor of t's
// shape and dtype), or nil before Backward has reached t.
func (t *Tensor) Grad() *Tensor {
	if t.ag == nil {
		return nil
	}
	return t.ag.grad
}

// ZeroGrad forgets t's accumulated gradient: the next Backward starts
// from zero (Backward adds to a gradient it finds, as torch does).
func (t *Tensor) ZeroGrad() {
	if t.ag != nil {
		t.ag.grad = nil
	}
}

// SetGrad replaces t's gradient (nil forgets it); t must require a
// gradient and g must have t's shape.
func (t *Tensor) SetGrad(g *Tensor) {
	if t.ag == nil || !t.ag.requires {
		opPanic("SetGrad", "the tensor does not require a gradient; call RequiresGrad first", t.l.shape)
	}
	if g != nil && !equalInts(g.l.shape, t.l.shape) {
		opPanic("SetGrad", "the gradient's shape differs from the tensor's", t.l.shape, g.l.shape)
	}
	t.ag.grad = g
}

// Detach returns t's value without its gradient record: operations on it
// are not differentiated. It shares t's lazy node (no copy).
func (t *Tensor) Detach() *Tensor { return &Tensor{l: t.l} }

// tracked reports whether x, an operand (a tensor or a Go number), carries
// a gradient record.
func tracked(x any) bool {
	v, ok := x.(*Tensor)
	return ok && v != nil && v.ag != nil
}

// detachAny is x without its gradient record when it is a tensor.
func detachAny(x any) any {
	if v, ok := x.(*Tensor); ok && v != nil {
		return v.Detach()
	}
	return x
}

// parentOf is x when it is a tensor carrying a gradient record, else nil.
func parentOf(x any) *Tensor {
	if v, ok := x.(*Tensor); ok && v != nil && v.ag != nil {
		return v
	}
	return nil
}

// recordGrad attaches to out (a new tensor computed from parents) the rule
// back, unless out cannot have a gradient (an integer or boolean result)
// or no parent carries one. It returns out.
func recordGrad(out *Tensor, op string, back func(g *Tensor) []*Tensor, parents ...*Tensor) *Tensor {
	if !out.l.dtype.IsFloat() {
		return out
	}
	for _, p := range parents {
		if p != nil {
			out.ag = &autograd{op: op, parents: parents, back: back}
			return out
		}
	}
	return out
}

// BackwardError says why Backward cannot run.
type BackwardError struct {
	Shape []int
	Msg   string
}

func (e *BackwardError) Error() string {
	return fmt.Sprintf("tensor: Backward of a %v tensor: %s", e.Shape, e.Msg)
}

// Backward computes the gradient of t, a scalar loss (one element), with
// respect to every tensor t was computed from that requires a gradient,
// adding each to that tensor's Grad. It first realizes t (the forward
// pass's kernels run, attributed to the "forward" region, before any
// parameter is updated); the gradients are built lazily, for an
// optimizer's Step (or Realize) to compute. It panics with a
// *BackwardError when t is not a scalar or depends on no tensor that
// requires a gradient; BackwardE returns the error instead.
func (t *Tensor) Backward() {
	if err := t.BackwardE(); err != nil {
		panic(err)
	}
}

// BackwardE is Backward returning its error.
func (t *Tensor) BackwardE() error {
	if t.Numel() != 1 {
		return &BackwardError{Shape: t.Shape(), Msg: fmt.Sprintf("has %d elements; Backward needs a scalar loss: reduce it first (Mean or Sum)", t.Numel())}
	}
	if t.ag == nil {
		return &BackwardError{Shape: t.Shape(), Msg: "the loss does not depend on any tensor that requires a gradient: call RequiresGrad on the parameters before the forward pass (nn layers do)"}
	}
	if t.l.base().kind != kBuffer {
		end := Region("forward")
		t.Realize()
		end()
	}
	order := topoOrder(t)
	grads := map[*Tensor]*Tensor{t: {l: &lazy{kind: kConst, shape: t.l.shape, dtype: t.l.dtype, dev: t.l.dev, value: 1}}}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		g := grads[n]
		if g == nil {
			continue
		}
		delete(grads, n) // the graph's tensors keep no gradients but the kept ones
		a := n.ag
		if a.requires {
			if a.grad == nil {
				a.grad = g
			} else {
				a.grad = a.grad.Add(g)
			}
		}
		if a.back == nil {
			continue
		}
		pg := a.back(g)
		for j, p := range a.parents {
			if p == nil || pg[j] == nil {
				continue
			}
			gj := fitGrad(pg[j], p)
			if old := grads[p]; old != nil {
				gj = old.Add(gj)
			}
			grads[p] = gj
		}
	}
	return nil
}

// topoOrder lists the tracked tensors t depends on, each after its
// parents (iteratively: a long chain must not exhaust the stack).
func topoOrder(t *Tensor) []*Tensor {
	var order []*Tensor
	seen := map[*Tensor]bool{t: true}
	type frame struct {
		t *Tensor
		i int
	}
	stack := []frame{{t: t}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(f.t.ag.parents) {
			p := f.t.ag.parents[f.i]
			f.i++
			if p != nil && !seen[p] {
				seen[p] = true
				stack = append(stack, frame{t: p})
			}
			continue
		}
		order = append(order, f.t)
		stack = stack[:len(stack)-1]
	}
	return order
}

// fitGrad makes g a gradient of p: summed over the axes p was broadcast
// along and cast to p's dtype.
func fitGrad(g, p *Tensor) *Tensor {
	return unbroadcast(g, p.l.shape).castTo(p.l.dtype)
}

// unbroadcast sums g over the axes a tensor of shape was broadcast along
// to reach g's shape (leading axes it lacks, and its size-1 axes).
func unbroadcast(g *Tensor, shape []int) *Tensor {
	if equalInts(g.l.shape, shape) {
		return g
	}
	nd, off := len(g.l.shape), len(g.l.shape)-len(shape)
	var axes []int
	for d := 0; d < nd; d++ {
		if d < off || (shape[d-off] == 1 && g.l.shape[d] != 1) {
			axes = append(axes, d)
		}
	}
	if len(axes) == 0 {
		return g.Reshape(shape...)
	}
	return g.SumKeepDim(axes...).Reshape(shape...)
}
