package tensor

// The JIT: an explicit cold → capture → replay state machine, in the
// spirit of tinygrad's TinyJit.
//
//	call 1 (cold): run fn normally (compiles its kernels)
//	call 2 (capture): run fn again, recording every kernel launch and buffer
//	call 3+ (replay): enqueue the recorded launches with the new inputs'
//	                  buffers swapped in; fn is NOT run
//
// Replays write into the buffers captured on call 2, so the outputs of
// different replays alias each other: every replay returns the same *Tensor
// for each output (a new one only when fn returned one of its inputs), and
// that tensor holds replay n+1's values once replay n+1 has run. Copy
// (ToSlice, or Contiguous().Realize() outside the JIT) what you want to keep.
//
// A replay allocates nothing in the steady state: its queue items, their
// buffer tables and the output tensors are built once and reused, so timing
// a replayed step measures the step, not the garbage collector.

import (
	"fmt"
	"github.com/tick-kernel/tick/runtime/device"
	"strings"
	"sync"
	"sync/atomic"
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
	state    []*Buffer // other buffers read before written: parameters, optimizer state (jit_state.go)
	outs     []capturedOut

	segs    []*replaySeg // the launches grouped into one queue item per device run
	args    []*Tensor    // the current call's prepared inputs (reused)
	outT    []*Tensor    // reused replay outputs; nil where fn returned an input
	outBack []*Tensor    // the slice replay returns (reused)
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
	out, err := j.CallE(in...)
	if err != nil {
		panic(err)
	}
	return out
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
	out, err := j.call(in)
	if err != nil || len(out) == 0 {
		return nil, err
	}
	return out[0], nil
}

// CallMultiE runs one call of the state machine and returns every output
// in a new slice.
func (j *JITFunc) CallMultiE(in ...*Tensor) ([]*Tensor, error) {
	out, err := j.call(in)
	if err != nil {
		return nil, err
	}
	return append([]*Tensor(nil), out...), nil
}

// call runs one call; the slice it returns may be reused by the next call.
// It does not let in escape, so Call(x) allocates no argument slice.
func (j *JITFunc) call(in []*Tensor) ([]*Tensor, error) {
	args := prepareInputs(j.args[:0], in)
	j.args = args
	defer clear(args) // do not keep the caller's tensors alive
	for i, t := range args {
		for p := range i {
			if args[p].l.buf == t.l.buf {
				return nil, &JITError{Input: i, Field: "duplicate", Want: fmt.Sprint(p), Got: fmt.Sprint(i)}
			}
		}
	}
	if j.calls == 0 {
		j.sig = make([]inputSig, len(args))
		for i, t := range args {
			j.sig[i] = inputSig{shape: t.Shape(), dtype: t.l.dtype, dev: t.l.dev}
		}
	} else if err := j.check(args); err != nil {
		return nil, err
	}
	j.calls++
	noteJITCall(j, j.calls, [...]string{"cold", "capture", "replay"}[min(j.calls, 3)-1], args)
	if prof.on.Load() {
		defer recordJIT(j.calls, time.Now())
	}
	switch j.calls {
	case 1:
		return realizeOutputs(j.fn(append([]*Tensor(nil), args...)...)), nil
	case 2:
		return j.capture(append([]*Tensor(nil), args...)), nil
	}
	return j.replay(args), nil
}

// prepareInputs appends in to dst, realizing inputs that are not buffers
// into contiguous buffers first (outside capture).
func prepareInputs(dst, in []*Tensor) []*Tensor {
	var todo []*lazy
	for _, t := range in {
		if t.l.kind != kBuffer {
			t = &Tensor{l: contiguous(t.l)}
			todo = append(todo, t.l)
		}
		dst = append(dst, t)
	}
	if len(todo) > 0 {
		realizeAll(todo)
	}
	return dst
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
	on     atomic.Bool // active != nil, readable without the lock
}

func recordCapture(d *Dev, w *work) {
	if !recorder.on.Load() {
		return
	}
	recorder.Lock()
	defer recorder.Unlock()
	if recorder.active != nil {
		for _, l := range w.launches {
			*recorder.active = append(*recorder.active, capturedLaunch{dev: d, l: l})
		}
	}
}

// recordTransferCapture records a transfer (To) for a JIT capture in
// progress: a replay copies the same bytes again, from the replay's input
// when the source was one.
func recordTransferCapture(dst, src *Buffer, off, n int) {
	if !recorder.on.Load() {
		return
	}
	recorder.Lock()
	defer recorder.Unlock()
	if recorder.active != nil {
		*recorder.active = append(*recorder.active, capturedLaunch{dev: dst.dev,
			l: launch{bufs: []*Buffer{dst, src}, xfer: &xferSpec{off: off, n: n}}})
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
	recorder.on.Store(true)
	recorder.Unlock()
	var outs []*Tensor
	func() {
		defer func() {
			recorder.Lock()
			recorder.active = nil
			recorder.on.Store(false)
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
	j.state = stateBuffers(got, j.inputs)
	j.outs = make([]capturedOut, len(outs))
	for i, t := range outs {
		b := t.l.base()
		c := capturedOut{buf: b.buf, shape: t.Shape(), dtype: t.l.dtype, isBuf: t.l.kind == kBuffer}
		if !c.isBuf {
			c.view = t.l.view.Clone()
		}
		j.outs[i] = c
	}
	return outs
}

// replay enqueues the captured launches with in's buffers swapped in and
// returns the outputs; see the file comment for what it reuses. A segment
// of small launches on an idle host device runs on the caller (runInline),
// as a small eager op does.
func (j *JITFunc) replay(in []*Tensor) []*Tensor {
	t0 := monoNow()
	counters.jitReplays.Add(1)
	if j.segs == nil {
		j.buildReplay()
	}
	for _, s := range j.segs {
		w := s.pool.get(in)
		if s.xfer {
			// A captured copy is the transfer phase's, not launch work:
			// the launch phase stops before it and starts again after
			// (%time's phases are disjoint and sum to the wall time).
			addPhaseAt(&counters.launchNS, t0)
			l := &w.launches[0]
			transferMem(l.bufs[0].dev, w.mems[0][0], l.bufs[1].dev, w.mems[0][1], l.xfer.off, l.xfer.n)
			s.pool.put(w)
			t0 = monoNow()
			continue
		}
		countLaunches(w)
		recordCapture(s.dev, w) // a replay inside another JIT's capture
		// Small launches on an idle device run here, as an eager op's do:
		// handing them to the worker (a wake-up on the other core) cost
		// more than a 64×64 matmul. As for the eager op, the launch phase
		// (one span per call in a profile) then includes the kernels,
		// which are also the device's time.
		if w.tiny && s.dev.inlineSmall() && s.dev.runInline(w) {
			s.pool.put(w)
			continue
		}
		s.dev.enqueue(w)
	}
	for i, o := range j.outs {
		if j.outT[i] != nil {
			j.outBack[i] = j.outT[i]
			continue
		}
		b := in[indexOf(j.inputs, o.buf)].l.buf // fn returned an input unchanged
		j.outBack[i] = outputTensor(b, o)
	}
	addPhaseAt(&counters.launchNS, t0)
	if debugLevel() >= 2 {
		debugSyncNotice()
		_ = SynchronizeAll()
	}
	return j.outBack
}

// buildReplay groups the captured launches into queue items (one per run of
// launches on one device) and builds the reusable output tensors.
func (j *JITFunc) buildReplay() {
	var seg *replaySeg
	for _, cl := range j.launches {
		if seg == nil || seg.dev != cl.dev || seg.xfer || cl.l.xfer != nil { // a transfer is a segment of its own
			seg = &replaySeg{dev: cl.dev, tmpl: &work{}, xfer: cl.l.xfer != nil}
			seg.pool.seg = seg
			j.segs = append(j.segs, seg)
		}
		li := len(seg.tmpl.launches)
		seg.tmpl.add(cl.l)
		for bi, p := range cl.inputs {
			if p >= 0 {
				seg.slots = append(seg.slots, inputSlot{launch: li, buf: bi, input: p})
			}
		}
	}
	for _, seg := range j.segs {
		seg.tmpl.prepare()
		seg.nIn = len(j.inputs)
	}
	j.outT = make([]*Tensor, len(j.outs))
	j.outBack = make([]*Tensor, len(j.outs))
	for i, o := range j.outs {
		if indexOf(j.inputs, o.buf) < 0 {
			j.outT[i] = outputTensor(o.buf, o)
		}
	}
}

// outputTensor is a replay output: the captured buffer b, or a view of it.
func outputTensor(b *Buffer, o capturedOut) *Tensor {
	base := &lazy{kind: kBuffer, shape: b.shapeOr(o), dtype: b.dtype, dev: b.dev, buf: b}
	if o.isBuf {
		return &Tensor{l: base}
	}
	return &Tensor{l: newView(o.shape, o.dtype, b.dev, base, o.view)}
}

// replaySeg is a run of captured launches on one device: one queue item per
// replay, taken from its pool.
type replaySeg struct {
	dev   *Dev
	xfer  bool        // one captured transfer, run by the replay itself
	tmpl  *work       // launches, and mems with the capture-time buffers
	slots []inputSlot // where the inputs' buffers go
	nIn   int
	pool  workPool
}

// inputSlot says launch's buffer buf is JIT input input.
type inputSlot struct{ launch, buf, input int }

// workPool recycles a segment's queue items: the device worker returns an
// item once it has run, so a steady stream of replays reuses a few items.
type workPool struct {
	mu   sync.Mutex
	free []*work
	seg  *replaySeg
}

// maxFreeWork bounds a pool. A loop of replays without a synchronize
// between them (a benchmark's hundred calls, then one wait) runs ahead of
// the worker and has up to that many items out at once; with a bound of 16
// every item past the sixteenth was garbage, 10 allocations a replay of a
// ten-kernel step (BenchmarkJITReplayKernel: 980 allocations per hundred
// calls, half its CPU profile). A pool keeps what the deepest such burst
// needed, up to this many items (a ten-kernel item is about 1 KB).
const maxFreeWork = 256

// get returns an item with in's buffers swapped in.
func (p *workPool) get(in []*Tensor) *work {
	p.mu.Lock()
	var w *work
	if n := len(p.free); n > 0 {
		w = p.free[n-1]
		p.free = p.free[:n-1]
	}
	p.mu.Unlock()
	if w == nil {
		w = p.seg.newItem()
	}
	for _, s := range p.seg.slots {
		w.mems[s.launch][s.buf] = in[s.input].l.buf.mem
	}
	for i, t := range in {
		w.keep[i] = t.l.buf // the inputs' memory must outlive the item
	}
	return w
}

// put takes back an item the worker has run. It drops the inputs' memory
// from the item's tables too: a pool keeps up to maxFreeWork items, and a
// loop replaying fresh inputs would otherwise keep that many inputs'
// memory reachable (get sets the slots again).
func (p *workPool) put(w *work) {
	clear(w.keep)
	for _, s := range p.seg.slots {
		w.mems[s.launch][s.buf] = nil
	}
	p.mu.Lock()
	if len(p.free) < maxFreeWork {
		p.free = append(p.free, w)
	}
	p.mu.Unlock()
}

// newItem copies the template, with its own buffer tables (one backing
// array for all launches' tables).
func (s *replaySeg) newItem() *work {
	w := *s.tmpl
	w.mems = make([][]device.Memory, len(s.tmpl.mems))
	n := 0
	for _, m := range s.tmpl.mems {
		n += len(m)
	}
	flat := make([]device.Memory, 0, n)
	for i, m := range s.tmpl.mems {
		at := len(flat)
		flat = append(flat, m...)
		w.mems[i] = flat[at:len(flat):len(flat)]
	}
	w.pool = &s.pool
	w.keep = make([]*Buffer, s.nIn)
	return &w
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

// Reset forgets the capture: the next call is a cold call again.
func (j *JITFunc) Reset() {
	j.calls, j.sig, j.launches, j.inputs, j.outs, j.state = 0, nil, nil, nil, nil, nil
	j.segs, j.outT, j.outBack = nil, nil, nil
}

// JITState is an inspectable snapshot of a JIT.
type JITState struct {
	Calls   int      // calls so far
	Phase   string   // what the next call does: "cold", "capture" or "replay"
	Kernels []string // captured kernel names, in launch order
	Inputs  []string // the input signature: "[256] float32 on GO"
	Outputs int      // captured outputs
	// State lists the buffers the captured kernels read that are not
	// inputs and that no kernel computed first — a training step's
	// parameters and optimizer state: "[10 256] float32 on CPU (updated
	// in place)".
	State []string
	// Regions counts the captured kernels by the Region they were
	// scheduled in: "forward 6", "backward 9", "optimizer 12".
	Regions []string
}

// State returns the JIT's state.
func (j *JITFunc) State() JITState {
	s := JITState{Calls: j.calls, Phase: [...]string{"cold", "capture", "replay"}[min(j.calls, 2)], Outputs: len(j.outs)}
	for _, l := range j.launches {
		s.Kernels = append(s.Kernels, l.l.name())
	}
	for _, sig := range j.sig {
		s.Inputs = append(s.Inputs, sig.String())
	}
	s.State = j.stateStrings()
	names, counts := j.regionKernels()
	for i, n := range names {
		s.Regions = append(s.Regions, fmt.Sprintf("%s %d", n, counts[i]))
	}
	return s
}

// String summarizes the state on one line.
func (j *JITFunc) String() string {
	s := j.State()
	extra := ""
	if len(s.State) > 0 {
		extra += fmt.Sprintf(", state: %d buffers [%s]", len(s.State), strings.Join(s.State, "; "))
	}
	if len(s.Regions) > 1 || (len(s.Regions) == 1 && !strings.HasPrefix(s.Regions[0], "no region")) {
		extra += ", kernels by region: " + strings.Join(s.Regions, ", ")
	}
	return fmt.Sprintf("JIT{calls: %d, next: %s, inputs: [%s], captured kernels: %d [%s]%s}",
		s.Calls, s.Phase, strings.Join(s.Inputs, "; "), len(s.Kernels), strings.Join(s.Kernels, " "), extra)
}
