package tensor

// The JIT: an explicit warm-up → capture → replay state machine, in the
// spirit of tinygrad's TinyJit.
//
//	call 1 (warm-up): run fn normally (compiles its kernels)
//	call 2 (capture): run fn again, recording every kernel launch and buffer
//	call 3+ (replay): enqueue the recorded launches with the new inputs'
//	                  buffers swapped in; fn is NOT run
//
// Replays write into the buffers captured on call 2, so the outputs of
// different replays alias each other: the tensor returned by replay n holds
// replay n+1's values once replay n+1 has run. Copy (ToSlice, or
// Contiguous().Realize() outside the JIT) what you want to keep.

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// JITError is returned (or panicked by Call) when a call's inputs differ
// from the first call's, or when two inputs are one buffer; Field says what
// ("count", "shape", "dtype", "device", "duplicate").
type JITError struct {
	Input int
	Field string
	Want  string
	Got   string
}

func (e *JITError) Error() string {
	if e.Field == "duplicate" {
		return fmt.Sprintf("tensor: JIT input %d is the same buffer as input %s; replays swap inputs by position, so pass distinct tensors (copy one with Contiguous().Realize())", e.Input, e.Want)
	}
	if e.Field == "count" {
		return fmt.Sprintf("tensor: JIT called with %s inputs, first call had %s; a JIT replays one signature, make another JIT for this one", e.Got, e.Want)
	}
	return fmt.Sprintf("tensor: JIT input %d %s changed from %s to %s; a JIT replays one signature, make another JIT (or Reset this one) for this one",
		e.Input, e.Field, e.Want, e.Got)
}

// JITFunc is a function compiled by JIT or JITMulti. It is not safe for
// concurrent calls.
type JITFunc struct {
	fn    func(...*Tensor) []*Tensor
	calls int
	sig   []inputSig

	launches []capturedLaunch
	inputs   []*Buffer // capture-time input buffers, by input position
	outs     []capturedOut
}

type inputSig struct {
	shape []int
	dtype DType
	dev   *Dev
}

func (s inputSig) String() string { return fmt.Sprintf("%v %s on %s", s.shape, s.dtype, s.dev.name) }

type capturedLaunch struct {
	dev    *Dev
	l      launch
	inputs []int // per buffer position: the JIT input it reads, or -1
}

type capturedOut struct {
	buf   *Buffer
	shape []int
	dtype DType
	view  View
	isBuf bool
}

// JIT wraps fn, a function of tensors returning one tensor. fn may be an
// interpreted function from a notebook cell.
func JIT(fn func(...*Tensor) *Tensor) *JITFunc {
	return &JITFunc{fn: func(in ...*Tensor) []*Tensor { return []*Tensor{fn(in...)} }}
}

// JITMulti wraps fn returning several tensors.
func JITMulti(fn func(...*Tensor) []*Tensor) *JITFunc { return &JITFunc{fn: fn} }

// Call runs the JIT and returns its first output; it panics with *JITError
// when the inputs differ from the first call's.
func (j *JITFunc) Call(in ...*Tensor) *Tensor {
	out, err := j.CallMultiE(in...)
	if err != nil {
		panic(err)
	}
	if len(out) == 0 {
		return nil
	}
	return out[0]
}

// CallMulti is Call returning every output.
func (j *JITFunc) CallMulti(in ...*Tensor) []*Tensor {
	out, err := j.CallMultiE(in...)
	if err != nil {
		panic(err)
	}
	return out
}

// CallE is Call returning the error instead of panicking.
func (j *JITFunc) CallE(in ...*Tensor) (*Tensor, error) {
	out, err := j.CallMultiE(in...)
	if err != nil || len(out) == 0 {
		return nil, err
	}
	return out[0], nil
}

// CallMultiE runs one call of the state machine.
func (j *JITFunc) CallMultiE(in ...*Tensor) ([]*Tensor, error) {
	in = prepareInputs(in)
	seen := map[*Buffer]int{}
	for i, t := range in {
		if p, dup := seen[t.l.buf]; dup {
			return nil, &JITError{Input: i, Field: "duplicate", Want: fmt.Sprint(p), Got: fmt.Sprint(i)}
		}
		seen[t.l.buf] = i
	}
	if j.calls == 0 {
		j.sig = make([]inputSig, len(in))
		for i, t := range in {
			j.sig[i] = inputSig{shape: t.Shape(), dtype: t.l.dtype, dev: t.l.dev}
		}
	} else if err := j.check(in); err != nil {
		return nil, err
	}
	j.calls++
	switch j.calls {
	case 1:
		return realizeOutputs(j.fn(in...)), nil
	case 2:
		return j.capture(in), nil
	}
	return j.replay(in), nil
}

// prepareInputs realizes inputs into contiguous buffers (outside capture).
func prepareInputs(in []*Tensor) []*Tensor {
	out := make([]*Tensor, len(in))
	var todo []*lazy
	for i, t := range in {
		if t.l.kind != kBuffer {
			t = &Tensor{l: contiguous(t.l)}
			todo = append(todo, t.l)
		}
		out[i] = t
	}
	if len(todo) > 0 {
		realizeAll(todo)
	}
	return out
}

func (j *JITFunc) check(in []*Tensor) error {
	if len(in) != len(j.sig) {
		return &JITError{Field: "count", Want: fmt.Sprint(len(j.sig)), Got: fmt.Sprint(len(in))}
	}
	for i, t := range in {
		s := j.sig[i]
		switch {
		case !equalInts(t.l.shape, s.shape):
			return &JITError{Input: i, Field: "shape", Want: fmt.Sprint(s.shape), Got: fmt.Sprint(t.l.shape)}
		case t.l.dtype != s.dtype:
			return &JITError{Input: i, Field: "dtype", Want: s.dtype.String(), Got: t.l.dtype.String()}
		case t.l.dev != s.dev:
			return &JITError{Input: i, Field: "device", Want: s.dev.name, Got: t.l.dev.name}
		}
	}
	return nil
}

// realizeOutputs realizes the bases of fn's outputs (views stay views).
func realizeOutputs(outs []*Tensor) []*Tensor {
	var ls []*lazy
	for _, t := range outs {
		if b := t.l.base(); b.kind != kBuffer {
			ls = append(ls, b)
		}
	}
	if len(ls) > 0 {
		realizeAll(ls)
	}
	return outs
}

// recorder is the capture in progress: process-wide because kernels are
// launched from deep inside Realize on any device; one capture at a time.
var recorder struct {
	sync.Mutex
	active *[]capturedLaunch
}

func recordCapture(d *Dev, w *work) {
	recorder.Lock()
	defer recorder.Unlock()
	if recorder.active != nil {
		for _, l := range w.launches {
			*recorder.active = append(*recorder.active, capturedLaunch{dev: d, l: l})
		}
	}
}

func (j *JITFunc) capture(in []*Tensor) []*Tensor {
	var got []capturedLaunch
	recorder.Lock()
	if recorder.active != nil {
		recorder.Unlock()
		panic(&OpError{Op: "JIT", Msg: "a JIT call started inside another JIT's capture; JITs do not nest"})
	}
	recorder.active = &got
	recorder.Unlock()
	var outs []*Tensor
	func() {
		defer func() {
			recorder.Lock()
			recorder.active = nil
			recorder.Unlock()
		}()
		outs = realizeOutputs(j.fn(in...))
	}()
	counters.jitCaptures.Add(1)
	j.inputs = make([]*Buffer, len(in))
	pos := map[*Buffer]int{}
	for i, t := range in {
		j.inputs[i] = t.l.buf
		pos[t.l.buf] = i
	}
	for i := range got {
		got[i].inputs = make([]int, len(got[i].l.bufs))
		for bi, b := range got[i].l.bufs {
			if p, ok := pos[b]; ok {
				got[i].inputs[bi] = p
			} else {
				got[i].inputs[bi] = -1
			}
		}
	}
	j.launches = got
	j.outs = make([]capturedOut, len(outs))
	for i, t := range outs {
		b := t.l.base()
		c := capturedOut{buf: b.buf, shape: t.Shape(), dtype: t.l.dtype, isBuf: t.l.kind == kBuffer}
		if !c.isBuf {
			c.view = t.l.view.clone()
		}
		j.outs[i] = c
	}
	return outs
}

func (j *JITFunc) replay(in []*Tensor) []*Tensor {
	t0 := time.Now()
	counters.jitReplays.Add(1)
	var w *work
	var wdev *Dev
	for _, cl := range j.launches {
		if w != nil && cl.dev != wdev {
			enqueueWork(wdev, w)
			w = nil
		}
		if w == nil {
			w = &work{launches: make([]launch, 0, len(j.launches)), mems: make([][]Memory, 0, len(j.launches))}
			wdev = cl.dev
		}
		mems := make([]Memory, len(cl.l.bufs))
		for bi, b := range cl.l.bufs {
			if p := cl.inputs[bi]; p >= 0 {
				mems[bi] = in[p].l.buf.mem
			} else {
				mems[bi] = b.mem
			}
		}
		w.launches = append(w.launches, cl.l)
		w.mems = append(w.mems, mems)
	}
	if w != nil {
		enqueueWork(wdev, w)
	}
	outs := make([]*Tensor, len(j.outs))
	for i, o := range j.outs {
		b := o.buf
		if p := indexOf(j.inputs, b); p >= 0 {
			b = in[p].l.buf // fn returned an input unchanged
		}
		base := &lazy{kind: kBuffer, shape: b.shapeOr(o), dtype: b.dtype, dev: b.dev, buf: b}
		if o.isBuf {
			outs[i] = &Tensor{l: base}
		} else {
			outs[i] = &Tensor{l: &lazy{kind: kView, shape: o.shape, dtype: o.dtype, dev: b.dev, srcs: []*lazy{base}, view: o.view}}
		}
	}
	addPhase(&counters.launchNS, t0)
	if debugLevel() >= 2 {
		debugSyncNotice()
		_ = SynchronizeAll()
	}
	return outs
}

func (b *Buffer) shapeOr(o capturedOut) []int {
	if o.isBuf {
		return o.shape
	}
	return []int{b.n}
}

func indexOf(bs []*Buffer, b *Buffer) int {
	for i, x := range bs {
		if x == b {
			return i
		}
	}
	return -1
}

// Reset forgets the capture: the next call is a warm-up again.
func (j *JITFunc) Reset() {
	j.calls, j.sig, j.launches, j.inputs, j.outs = 0, nil, nil, nil, nil
}

// JITState is an inspectable snapshot of a JIT.
type JITState struct {
	Calls   int      // calls so far
	Phase   string   // what the next call does: "warm-up", "capture" or "replay"
	Kernels []string // captured kernel names, in launch order
	Inputs  []string // the input signature: "[256] float32 on GO"
	Outputs int      // captured outputs
}

// State returns the JIT's state.
func (j *JITFunc) State() JITState {
	s := JITState{Calls: j.calls, Phase: [...]string{"warm-up", "capture", "replay"}[min(j.calls, 2)], Outputs: len(j.outs)}
	for _, l := range j.launches {
		s.Kernels = append(s.Kernels, l.l.k.Name)
	}
	for _, sig := range j.sig {
		s.Inputs = append(s.Inputs, sig.String())
	}
	return s
}

// String summarizes the state on one line.
func (j *JITFunc) String() string {
	s := j.State()
	return fmt.Sprintf("JIT{calls: %d, next: %s, inputs: [%s], captured kernels: %d [%s]}",
		s.Calls, s.Phase, strings.Join(s.Inputs, "; "), len(s.Kernels), strings.Join(s.Kernels, " "))
}
