package tensor

// The scheduler turns a lazy graph into kernels. Each unrealized base node
// that must exist as a buffer (the realized target, a reduce, anything read
// through a non-trivial view) becomes one kernel; elementwise nodes between
// them are inlined into the kernel that consumes them, so a chain of
// elementwise ops, and the reduce that consumes it, run as one kernel.

import (
	"fmt"
	"github.com/tick-kernel/tick/runtime/device"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

type schedItem struct {
	k    *Kernel
	bufs []*Buffer
	dev  *Dev
	// For a plan (inspect.go): the node the kernel computes and the nodes
	// inlined into it.
	root  *lazy
	fused map[*lazy]*Node
}

type scheduler struct {
	items []schedItem
	dry   bool // planning only (Tensor.Plan): buffers get no memory
}

// realize schedules l (a base) and, first, everything it needs. Afterwards l
// is a kBuffer whose buffer the scheduled kernels fill.
func (s *scheduler) realize(l *lazy) {
	if l.kind == kBuffer {
		return
	}
	// Slot 0 of bufs and specs is the output, filled in below.
	kb := &kbuild{s: s, dev: l.dev, root: l, memo: map[*lazy]*Node{},
		bufs: make([]*Buffer, 1, 4), specs: make([]BufferSpec, 1, 4)}
	if l.dst != nil {
		s.guardAssign(l)
	}
	k := &Kernel{}
	if l.kind == kReduce {
		src := l.srcs[0]
		k.Shape = append([]int(nil), src.shape...)
		k.ReduceAxes = append([]int(nil), l.axes...)
		k.Reduce = l.rop
		k.Expr = kb.inline(src)
	} else {
		k.Shape = append([]int(nil), l.shape...)
		k.Expr = kb.inline(l)
	}
	var out *Buffer
	if l.dst != nil {
		out = l.dst
	} else if s.dry {
		out = &Buffer{dev: l.dev, dtype: l.dtype, n: prod(l.shape)}
	} else {
		out = mustBuffer(l.dev, l.dtype, prod(l.shape))
	}
	out.shape = l.shape
	kb.bufs[0], kb.specs[0] = out, BufferSpec{DType: l.dtype, Size: out.n}
	k.Bufs = kb.specs
	k.Name = kernelName(k)
	s.items = append(s.items, schedItem{k: k, bufs: kb.bufs, dev: l.dev, root: l, fused: kb.memo})
	*l = lazy{kind: kBuffer, shape: l.shape, dtype: l.dtype, dev: l.dev, buf: out}
}

func kernelName(k *Kernel) string {
	b := make([]byte, 0, 32)
	if k.Reduce != ReduceNone {
		b = append(b, 'R')
	} else {
		b = append(b, 'E')
	}
	for d, n := range k.Shape {
		b = append(b, '_')
		if slices.Contains(k.ReduceAxes, d) {
			b = append(b, 'r')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

// kbuild builds one kernel's expression.
type kbuild struct {
	s     *scheduler
	dev   *Dev
	root  *lazy        // the node this kernel computes
	bufs  []*Buffer    // the kernel's buffers: 0 the output, then inputs in first-load order
	specs []BufferSpec // their specs, same order
	memo  map[*lazy]*Node
}

// inline returns the expression computing n at every point of the kernel's
// shape (n.shape equals it).
func (kb *kbuild) inline(n *lazy) *Node {
	if r := kb.memo[n]; r != nil {
		return r
	}
	var r *Node
	switch n.kind {
	case kBuffer:
		r = kb.load(n.buf, n.dtype, contiguousView(n.shape))
	case kConst:
		r = &Node{Op: OpConst, DType: n.dtype, Value: n.value}
	case kElem:
		if ownKernel(n) && n != kb.root { // its own kernel: read its buffer
			kb.s.realize(n)
			r = kb.load(n.buf, n.dtype, contiguousView(n.shape))
			break
		}
		src := make([]*Node, len(n.srcs))
		for i, s := range n.srcs {
			src[i] = kb.inline(s)
		}
		if n.op == OpCast && src[0].DType == n.dtype {
			r = src[0] // an identity cast (a contiguous copy) is the value itself
		} else {
			r = &Node{Op: n.op, DType: n.dtype, Src: src}
		}
	case kReduce:
		kb.s.realize(n)
		r = kb.load(n.buf, n.dtype, contiguousView(n.shape))
	case kView:
		b := n.srcs[0]
		if b.kind == kConst && n.view.Mask == nil {
			r = &Node{Op: OpConst, DType: n.dtype, Value: b.value}
			break
		}
		kb.s.realize(b)
		r = kb.load(b.buf, n.dtype, *n.view)
	}
	kb.memo[n] = r
	return r
}

func (kb *kbuild) load(b *Buffer, dt DType, v View) *Node {
	if b.dev != kb.dev {
		panic(&OpError{Op: "Realize", Msg: fmt.Sprintf("a kernel on %s reads a buffer on %s; move tensors with To(%q) first", kb.dev.name, b.dev.name, kb.dev.name)})
	}
	i := slices.Index(kb.bufs[1:], b) + 1 // a kernel reads few buffers: a scan beats a map
	if i == 0 {
		i = len(kb.bufs)
		kb.bufs = append(kb.bufs, b)
		kb.specs = append(kb.specs, BufferSpec{DType: b.dtype, Size: b.n})
	}
	return &Node{Op: OpLoad, DType: dt, Buf: i, View: v.Clone()}
}

// Realize schedules everything t depends on, enqueues the kernels on the
// device and returns t at once, before the device has finished. Reading data
// or Synchronize waits.
func (t *Tensor) Realize() *Tensor {
	if l := t.l.base(); l.kind != kBuffer {
		realizeOne(l)
	}
	return t
}

// RealizeAll realizes several tensors in one schedule.
func RealizeAll(ts ...*Tensor) {
	ls := make([]*lazy, len(ts))
	for i, t := range ts {
		ls[i] = t.l.base()
	}
	realizeAll(ls)
}

func realizeAll(ls []*lazy) { scheduleAndLaunch(ls, monoNow()) }

// scheduleAndLaunch is the general path of Realize (scheduling began at t0):
// it schedules ls, compiles what is missing and enqueues the launches, and
// returns the scheduled items and their programs.
func scheduleAndLaunch(ls []*lazy, t0 stamp) ([]schedItem, []device.Program) {
	s := &scheduler{}
	for _, l := range ls {
		s.realize(l)
	}
	addPhaseAt(&counters.scheduleNS, t0)
	if len(s.items) == 0 {
		return nil, nil
	}
	lv := debugLevel()
	if lv >= 1 {
		names := make([]string, len(s.items))
		for i, it := range s.items {
			names[i] = it.k.Name
		}
		debugRepeat("schedule: %d kernel(s) on %s: %s\n", len(s.items), s.items[0].dev.name, strings.Join(names, " "))
	}
	t1 := time.Now()
	for _, it := range s.items {
		_ = it.k.Key()
		if lv >= 3 {
			debugRepeat("  %s\n", strings.ReplaceAll(it.k.Key(), "\n", "\n  "))
		}
	}
	addPhase(&counters.codegenNS, t1)
	var w *work
	var wdev *Dev
	flush := func() {
		if w != nil {
			enqueueWork(wdev, w)
			w = nil
		}
	}
	progs, err := compileAll(s.items)
	if err != nil {
		panic(err)
	}
	for i, it := range s.items {
		p := progs[i]
		if it.k.OutSize() == 0 {
			continue
		}
		if w != nil && wdev != it.dev {
			flush()
		}
		if w == nil {
			w, wdev = &work{}, it.dev
		}
		w.add(launch{k: it.k, prog: p, bufs: it.bufs, region: CurrentRegion()})
	}
	flush()
	if lv >= 2 {
		debugSyncNotice()
		_ = SynchronizeAll()
	}
	return s.items, progs
}

func (w *work) add(l launch) {
	mems := make([]device.Memory, len(l.bufs))
	for i, b := range l.bufs {
		mems[i] = b.mem
	}
	w.launches = append(w.launches, l)
	w.mems = append(w.mems, mems)
}

// enqueueWork counts the launches, records them for a JIT capture in
// progress, and hands them to the device: small ones on an idle host
// device run on the caller (runInline), the rest go to its queue.
func enqueueWork(d *Dev, w *work) {
	t0 := time.Now()
	w.prepare()
	countLaunches(w)
	recordCapture(d, w)
	if !w.tiny || !d.inlineSmall() || !d.runInline(w) { // on the caller, the launch phase includes the kernels
		d.enqueue(w)
	}
	addPhase(&counters.launchNS, t0)
}

// countLaunches adds a prepared item's launches to the counters.
func countLaunches(w *work) {
	counters.launched.Add(int64(len(w.launches)))
	counters.flops.Add(w.flops)
	counters.bytes.Add(w.bytes)
}

// compileAll returns the program of each item. Kernels not yet compiled are
// compiled concurrently, at most GOMAXPROCS at a time (a C compile takes
// tens of milliseconds, so a cold schedule of several kernels is bounded by
// the compiler). The first error in schedule order is returned.
func compileAll(items []schedItem) ([]device.Program, error) {
	progs := make([]device.Program, len(items))
	errs := make([]error, len(items))
	var missing []int
	var seen map[string]bool // allocated only when something must compile
	for i, it := range items {
		if p := it.dev.cached(it.k); p != nil {
			counters.cacheHits.Add(1)
			noteKernel(it.dev, it.k, CacheMemory)
			if prof.on.Load() {
				t := time.Now()
				recordCompile(it.dev, it.k, "memory cache", t, t)
			}
			progs[i] = p
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if key := it.dev.name + "\x00" + it.k.Key(); !seen[key] {
			seen[key] = true
			missing = append(missing, i)
		}
	}
	if len(missing) > 1 && runtime.GOMAXPROCS(0) > 1 {
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for _, i := range missing {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				progs[i], errs[i] = items[i].dev.program(items[i].k)
			}()
		}
		wg.Wait()
	}
	for i, it := range items {
		if progs[i] == nil && errs[i] == nil {
			progs[i], errs[i] = it.dev.program(it.k)
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return progs, nil
}
