package tensor

// The schedule cache: the eager fast path. An eager op (x.Add(1).Realize()
// in a loop) builds the same graph again and again with new buffers, and
// the general scheduler rebuilt its kernel, its string key and its queue
// item every time: 53 allocations and most of the op's cost. Realize of a
// graph that is one kernel (elementwise ops and at most a reduce at the
// root, over realized buffers and constants) first walks the graph into a
// tape of integers that says everything the scheduler's output depends on
// except which buffers are read: kinds, ops, dtypes, shapes, views,
// constant values, and for each buffer read its position among the
// distinct buffers. The tape's hash finds a template in the device's
// cache; a template whose tape is equal holds the kernel, its compiled
// program and the per-launch fields, so the op costs the walk, one output
// buffer (from the device's pool, buffer.go) and one queue item. A miss
// runs the general scheduler and stores what it made.
//
// The fast path is skipped while facts are recorded, a profile is taken or
// DEBUG is set, so what those report is what the general path does.

import (
	"github.com/tick-kernel/tick/runtime/device"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// tapeMax bounds the tape (and so the graphs the fast path handles); a
// longer graph takes the general path, whose cost it dwarfs anyway.
const tapeMax = 128

// maxTemplates bounds a device's schedule cache; when full it is emptied
// (templates are cheap to rebuild: a miss costs one general schedule).
const maxTemplates = 4096

// Tape tokens: the low byte says what a token starts.
const (
	tBuffer uint64 = iota + 1
	tConst
	tElem
	tView
	tReduce
	tRef // a shared elementwise node seen before: its index in seen
	tRoot
)

// tapeWalk is one walk of a graph: the tape, the distinct buffers read
// (in first-read order) and the elementwise nodes seen (for shared ones).
type tapeWalk struct {
	dev  *Dev
	root *lazy
	tape [tapeMax]uint64
	n    int
	bufs [8]*Buffer
	nbuf int
	seen [16]*lazy
	nsee int
}

func (w *tapeWalk) put(v uint64) bool {
	if w.n == tapeMax {
		return false
	}
	w.tape[w.n] = v
	w.n++
	return true
}

func (w *tapeWalk) ints(v []int) bool {
	if !w.put(uint64(len(v))) {
		return false
	}
	for _, x := range v {
		if !w.put(uint64(x)) {
			return false
		}
	}
	return true
}

// slot returns b's position among the distinct buffers read, adding it.
func (w *tapeWalk) slot(b *Buffer) (int, bool) {
	for i := range w.nbuf {
		if w.bufs[i] == b {
			return i, true
		}
	}
	if w.nbuf == len(w.bufs) || b.dev != w.dev {
		return 0, false // many inputs, or another device (the general path says so)
	}
	w.bufs[w.nbuf] = b
	w.nbuf++
	return w.nbuf - 1, true
}

// graph walks root; false means the graph is not one kernel over realized
// buffers (or is too large) and takes the general path.
func (w *tapeWalk) graph(root *lazy) bool {
	w.dev, w.root = root.dev, root
	if root.dst != nil {
		return false // an assignment writes into its target, not a new buffer
	}
	if !w.put(tRoot|uint64(root.dtype)<<8) || !w.ints(root.shape) {
		return false
	}
	if root.kind == kReduce {
		src := root.srcs[0]
		return w.put(tReduce|uint64(root.rop)<<8) && w.ints(root.axes) && w.ints(src.shape) && w.node(src)
	}
	return w.node(root)
}

func (w *tapeWalk) node(n *lazy) bool {
	switch n.kind {
	case kBuffer:
		s, ok := w.slot(n.buf)
		return ok && w.put(tBuffer|uint64(n.dtype)<<8|uint64(s)<<16) && w.put(uint64(n.buf.n)) && w.ints(n.shape)
	case kConst:
		return w.put(tConst|uint64(n.dtype)<<8) && w.put(math.Float64bits(n.value))
	case kElem:
		if ownKernel(n) && n != w.root {
			return false // its own kernel
		}
		for i := range w.nsee {
			if w.seen[i] == n {
				return w.put(tRef | uint64(i)<<8)
			}
		}
		if w.nsee == len(w.seen) {
			return false
		}
		w.seen[w.nsee] = n
		w.nsee++
		if !w.put(tElem | uint64(n.dtype)<<8 | uint64(n.op)<<16 | uint64(len(n.srcs))<<24) {
			return false
		}
		for _, s := range n.srcs {
			if !w.node(s) {
				return false
			}
		}
		return true
	case kView:
		b := n.srcs[0]
		switch {
		case b.kind == kConst && n.view.Mask == nil:
			return w.put(tConst|uint64(n.dtype)<<8) && w.put(math.Float64bits(b.value))
		case b.kind != kBuffer:
			return false // the base needs a kernel of its own first
		}
		s, ok := w.slot(b.buf)
		if !ok || !w.put(tView|uint64(n.dtype)<<8|uint64(b.buf.dtype)<<16|uint64(s)<<24) || !w.put(uint64(b.buf.n)) {
			return false
		}
		v := n.view
		if !w.ints(v.Shape) || !w.ints(v.Strides) || !w.put(uint64(v.Offset)) || !w.put(uint64(len(v.Mask))) {
			return false
		}
		for _, m := range v.Mask {
			if !w.put(uint64(m[0])) || !w.put(uint64(m[1])) {
				return false
			}
		}
		return true
	}
	return false // a reduce below the root: two kernels
}

// hash is FNV-1a over the tape's words.
func (w *tapeWalk) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range w.tape[:w.n] {
		h ^= v
		h *= 1099511628211
	}
	return h
}

// schedTemplate is a cached single-kernel schedule: what the general
// scheduler made of a graph with this tape.
type schedTemplate struct {
	hash  uint64 // of tape
	tape  []uint64
	k     *Kernel
	prog  device.Program
	perm  []uint8 // kernel buffer i+1 is walk buffer perm[i]
	outN  int
	outDT DType
	// The queue item's derived fields (work.prepare), shared read-only by
	// every launch of the template.
	progs        []device.Program
	dims         []device.Dims
	small        bool
	flops, bytes int64
}

// schedCache is a device's templates by tape hash. recent holds the
// templates found last, by the hash's low bits, read without the lock: a
// loop of eager ops finds its few templates there (the map's lock and
// lookup were a tenth of a cached op's host time).
type schedCache struct {
	recent [recentTemplates]atomic.Pointer[schedTemplate]
	mu     sync.Mutex
	m      map[uint64][]*schedTemplate
}

// recentTemplates is the size of schedCache.recent (a power of two).
const recentTemplates = 16

func (c *schedCache) lookup(h uint64, tape []uint64) *schedTemplate {
	r := &c.recent[h%recentTemplates]
	if t := r.Load(); t != nil && t.hash == h && slices.Equal(t.tape, tape) {
		return t
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.m[h] {
		if slices.Equal(t.tape, tape) {
			r.Store(t)
			return t
		}
	}
	return nil
}

func (c *schedCache) store(h uint64, t *schedTemplate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTemplates {
		c.m = map[uint64][]*schedTemplate{}
		for i := range c.recent {
			c.recent[i].Store(nil)
		}
	}
	t.hash = h
	c.m[h] = append(c.m[h], t)
}

// fastPathOn reports whether Realize may use the schedule cache: not while
// facts, a profile or DEBUG output want to see the general path's events.
func fastPathOn() bool { return !facts.on.Load() && !prof.on.Load() && debugLevel() == 0 }

// realizeOne realizes one base node: from a template when its graph's tape
// is cached, else through the general scheduler (storing a template when
// the graph was one kernel).
func realizeOne(l *lazy) {
	if !fastPathOn() {
		realizeAll([]*lazy{l})
		return
	}
	t0 := monoNow()
	w := &tapeWalk{}
	if !w.graph(l) {
		realizeAll([]*lazy{l})
		return
	}
	h := w.hash()
	if tp := l.dev.sched.lookup(h, w.tape[:w.n]); tp != nil {
		launchTemplate(l, tp, w, t0)
		return
	}
	items, progs := scheduleAndLaunch([]*lazy{l}, t0)
	if len(items) != 1 || items[0].root != l || items[0].k.OutSize() == 0 {
		return
	}
	it := items[0]
	tp := &schedTemplate{tape: slices.Clone(w.tape[:w.n]), k: it.k, prog: progs[0],
		outN: it.bufs[0].n, outDT: it.bufs[0].dtype}
	for _, b := range it.bufs[1:] {
		i := slices.Index(w.bufs[:w.nbuf], b)
		if i < 0 {
			return // a buffer the walk did not see: not a template
		}
		tp.perm = append(tp.perm, uint8(i))
	}
	pw := &work{launches: []launch{{k: it.k, prog: progs[0]}}}
	pw.prepare()
	tp.progs, tp.dims = pw.progs, pw.dims
	tp.small, tp.flops, tp.bytes = pw.small, pw.flops, pw.bytes
	l.dev.sched.store(h, tp)
}

// eagerItem is a template launch's queue item with its tables, in one
// object for kernels of up to four buffers, recycled through eagerItems
// once the worker has run it (unless a JIT capture keeps its launch).
type eagerItem struct {
	w      work
	launch [1]launch
	mems   [1][]device.Memory
	bufArr [4]*Buffer
	memArr [4]device.Memory
}

var eagerItems = sync.Pool{New: func() any { return &eagerItem{} }}

// release returns a run item to eagerItems, dropping its references.
func (it *eagerItem) release() {
	it.w = work{}
	it.launch[0] = launch{}
	it.mems[0] = nil
	clear(it.bufArr[:])
	clear(it.memArr[:])
	eagerItems.Put(it)
}

// launchTemplate schedules l from tp with the walk's buffers and enqueues
// the launch; l becomes a realized buffer.
func launchTemplate(l *lazy, tp *schedTemplate, wk *tapeWalk, t0 stamp) {
	counters.cacheHits.Add(1)
	t1 := addPhaseAt(&counters.scheduleNS, t0)
	out, t2, err := newBufferAt(l.dev, tp.outDT, tp.outN, t1)
	if err != nil {
		panic(err)
	}
	out.shape = l.shape
	prefetchOut(out)
	if tp.small && l.dev.inlineSmall() && !recorder.on.Load() && l.dev.launchNow(tp, out, wk, t2) {
		becomeBuffer(l, out)
		return
	}
	it := eagerItems.Get().(*eagerItem)
	nb := len(tp.perm) + 1
	bufs, mems := it.bufArr[:0], it.memArr[:0]
	if nb > len(it.bufArr) {
		bufs, mems = make([]*Buffer, 0, nb), make([]device.Memory, 0, nb)
	}
	bufs, mems = append(bufs, out), append(mems, out.mem)
	for _, p := range tp.perm {
		b := wk.bufs[p]
		bufs, mems = append(bufs, b), append(mems, b.mem)
	}
	it.launch[0] = launch{k: tp.k, prog: tp.prog, bufs: bufs, region: CurrentRegion()}
	it.mems[0] = mems
	w := &it.w
	w.launches, w.mems = it.launch[:], it.mems[:]
	w.progs, w.dims = tp.progs, tp.dims
	w.small, w.tiny, w.flops, w.bytes = tp.small, tp.small, tp.flops, tp.bytes // one launch: tiny is small
	if !recorder.on.Load() {                                                   // a capture keeps the launch, and so its tables
		w.eager = it
	}
	becomeBuffer(l, out)
	countLaunches(w)
	recordCapture(l.dev, w)
	if w.tiny && l.dev.inlineSmall() && l.dev.runInline(w) {
		if w.eager != nil {
			w.eager.release()
		}
	} else {
		l.dev.enqueue(w)
	}
	addPhaseAt(&counters.launchNS, t2)
}

// prefetchMax is the largest output prefetchOut asks for (a slab buffer's).
const prefetchMax = slabMaxBytes

// prefetchOut asks for a small output's cache lines for writing before its
// kernel runs. Pooled memory comes back only at a collection, some
// thousands of eager ops after it was last written, so an op's output is
// cold: the kernel's stores missed, and the cgo call's return (an atomic,
// which waits for the stores to drain) took about 0.2 µs of a synchronized
// op's 1.6. The prefetch overlaps those misses with the launch's own work.
func prefetchOut(out *Buffer) {
	h, ok := out.mem.(device.Host)
	if !ok {
		return
	}
	if b := h.Bytes(); len(b) > 0 && len(b) <= prefetchMax {
		prefetchW(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
	}
}

// launchNow runs a small template launch on the calling goroutine while d
// is idle (nothing queued or running) and reports whether it did; else
// the caller enqueues it. It is runInline for the fast path without a
// queue item: it holds d.mu across the kernel instead of counting it
// pending (an enqueue or Synchronize of another goroutine waits for a
// kernel of a few microseconds at most), so the launch takes one lock, no
// item and no wake-up. A failure is kept for the next Synchronize, as a
// queued kernel's would be. Not while a JIT captures (it keeps the
// launch) nor on a device with its own clock or queue.
func (d *Dev) launchNow(tp *schedTemplate, out *Buffer, wk *tapeWalk, t2 stamp) bool {
	nb := len(tp.perm) + 1
	if nb > len(d.nowMems) || d.async || d.stamped != nil {
		return false
	}
	d.mu.Lock()
	if d.pending > 0 {
		d.mu.Unlock()
		return false
	}
	mems := d.nowMems[:nb]
	mems[0] = out.mem
	for i, p := range tp.perm {
		mems[i+1] = wk.bufs[p].mem
	}
	err := d.launchOne(tp.k, tp.progs[0], mems, tp.dims[0])
	t3 := max(monoNow(), t2)
	clear(mems)
	if err != nil && d.err == nil {
		d.err = err
	}
	d.mu.Unlock()
	counters.launched.Add(1)
	counters.flops.Add(tp.flops)
	counters.bytes.Add(tp.bytes)
	// One reading for both phases: the device's time is the launch's, from
	// the buffer's allocation (t2) to the kernel's return; the lock and the
	// table before the call are some ten ns of it. A queued launch's
	// device time also has the queue's dispatch in it.
	counters.deviceNS.Add(int64(t3 - t2))
	counters.launchNS.Add(int64(t3 - t2))
	return true
}

// becomeBuffer makes l, a node of the fast path (elementwise, or a reduce
// at the root), the realized buffer out: *l = lazy{kind: kBuffer, shape,
// dtype, dev, buf: out}, writing only the fields such a node can have set
// (a composite assignment writes the whole node through the collector's
// bulk write barrier: 100 ns an eager op while a collection runs).
func becomeBuffer(l *lazy, out *Buffer) {
	l.kind, l.op, l.rop, l.keep, l.value, l.buf = kBuffer, 0, 0, false, 0, out
	if l.dst != nil {
		l.dst = nil
	}
	if l.srcs != nil {
		l.srcs = nil
	}
	if l.axes != nil {
		l.axes = nil
	}
	for i := range l.inl {
		if l.inl[i] != nil {
			l.inl[i] = nil
		}
	}
	if l.view != nil {
		l.view = nil
	}
}
