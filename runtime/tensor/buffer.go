package tensor

import (
	"fmt"
	"github.com/tick-kernel/tick/runtime/device"
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Buffer is device memory holding n elements of one dtype. Realized tensors
// view a Buffer; kernels read and write Buffers.
type Buffer struct {
	dev   *Dev
	dtype DType
	n     int
	mem   device.Memory
	shape []int // the shape of the tensor it was made for (provenance)
}

// newBuffer returns n elements on d, from the device's pool when it holds
// memory of the size class, else newly allocated; it accounts allocation
// time and memory in use. When the Buffer becomes unreachable its memory
// goes back to the pool (or is freed when the pool is full).
//
// The memory is not cleared: both callers overwrite every element (a
// kernel's output, which every kernel writes whole; fromBytes's copy), and
// clearing 64 MB before a kernel overwrites it doubled the memory traffic
// of eager ops.
//
// Memory outside Go's heap (the CPU device's C buffers) is invisible to
// the garbage collector, which runs the cleanups that return it: a loop of
// eager ops on 16M elements allocated C memory for each result and reached
// 10 GB before the tiny Go heap asked for a collection. paceExternal
// accounts such buffers and runs a collection once those handed out since
// the last exceed what was live after it, as GOGC=100 does for Go's heap.
func newBuffer(d *Dev, dt DType, n int) (*Buffer, error) {
	b, _, err := newBufferAt(d, dt, n, monoNow())
	return b, err
}

// newBufferAt is newBuffer timed from t0; it returns the stamp of its end.
func newBufferAt(d *Dev, dt DType, n int, t0 stamp) (*Buffer, stamp, error) {
	size := n * dt.Size()
	class, cbytes := -1, size
	if d.poolable() {
		class, cbytes = sizeClass(size)
	}
	external := d.external()
	if external {
		paceExternal(int64(cbytes))
	}
	pm := pooledMem{alloc: d.dev, bytes: cbytes, class: class, external: external}
	if class >= 0 {
		pm.pool = &d.pool
	}
	slab := class >= 0 && cbytes <= slabMaxBytes
	var b *Buffer
	if slab { // the common small case: pooled memory and its slab Buffer under one lock
		b = d.pool.getSlab(dt, n, pm)
	} else {
		pm.mem = d.pool.get(class, dt, n, external)
	}
	if b == nil && pm.mem == nil {
		var err error
		if pm.mem, err = d.allocClass(dt, n, cbytes, external); err != nil {
			t1 := addPhaseAt(&counters.allocNS, t0)
			return nil, t1, fmt.Errorf("tensor: allocating %d × %s on %s: %w", n, dt, d.name, err)
		}
	}
	counters.memInUse.Add(int64(cbytes))
	counters.buffers.Add(1)
	if external {
		externalMem.inUse.Add(int64(cbytes))
	}
	switch {
	case b != nil:
	case slab:
		b = d.pool.slabBuffer(pm)
	default:
		b = &Buffer{}
		runtime.AddCleanup(b, releaseMemory, pm)
	}
	// Field by field: b is new or a new slab's, so its fields are zero (a
	// composite assignment writes the whole Buffer through the bulk
	// write barrier while a collection runs).
	b.dev, b.dtype, b.n = d, dt, n
	if b.mem == nil {
		b.mem = pm.mem
	}
	t1 := addPhaseAt(&counters.allocNS, t0)
	return b, t1, nil
}

// Small buffers are handed out slabN at a time from one slab, whose cleanup
// returns the memory of all of them: a cleanup costs about 0.7 µs (the
// runtime's special record, a closure, the call), as much as the rest of
// an eager op. The price: a small buffer's memory comes back only once
// every buffer of its slab is unreachable, so a long-lived small tensor
// holds up to slabN-1 other small buffers (at most slabMaxBytes each).
const (
	slabN        = 16
	slabMaxBytes = 4096
)

// bufSlab is slabN Buffers in one allocation.
type bufSlab struct{ bufs [slabN]Buffer }

// slabMems is a slab's cleanup argument: the memory of its buffers, all
// from one device's pool (it must not point at the slab, or the slab would
// never be unreachable). A buffer's entry is its memory and size class,
// 17 bytes, not a pooledMem's 64: less for the collector per eager op.
type slabMems struct {
	pool     *bufPool
	external bool
	n        int
	class    [slabN]uint8 // numClasses < 256
	mems     [slabN]device.Memory
}

// slabBuffer returns the next Buffer of the device's current slab, whose
// memory pm is (a new slab when it is full).
func (p *bufPool) slabBuffer(pm pooledMem) *Buffer {
	p.mu.Lock()
	b := p.nextSlabBuffer(pm)
	p.mu.Unlock()
	return b
}

// nextSlabBuffer is slabBuffer with p.mu held.
func (p *bufPool) nextSlabBuffer(pm pooledMem) *Buffer {
	if p.slab == nil || p.slabArg.n == slabN {
		p.slab, p.slabArg = &bufSlab{}, &slabMems{pool: pm.pool, external: pm.external}
		runtime.AddCleanup(p.slab, releaseSlab, p.slabArg)
	}
	a := p.slabArg
	a.mems[a.n], a.class[a.n] = pm.mem, uint8(pm.class)
	a.n++
	b := &p.slab.bufs[a.n-1]
	b.mem = pm.mem
	return b
}

// getSlab is get and slabBuffer under one lock: pooled memory of pm's
// class resized to n × dt and the slab Buffer holding it (its mem set, the
// rest zero), or nil when the pool has no memory of the class.
func (p *bufPool) getSlab(dt DType, n int, pm pooledMem) *Buffer {
	p.mu.Lock()
	pm.mem = p.pop(pm.class)
	if pm.mem == nil {
		p.mu.Unlock()
		return nil
	}
	b := p.nextSlabBuffer(pm)
	p.mu.Unlock()
	p.taken(pm.mem, dt, n)
	return b
}

// releaseSlab is the cleanup of an unreachable slab: its buffers all come
// from one device's pool, which takes them back under one lock.
func releaseSlab(a *slabMems) {
	if a.n == 0 {
		return
	}
	var arr [slabN]pooledMem
	pms := arr[:a.n]
	var bytes int64
	for i := range pms {
		_, cb := classBytes(int(a.class[i]))
		pms[i] = pooledMem{pool: a.pool, mem: a.mems[i], bytes: cb, class: int(a.class[i]), external: a.external}
		bytes += int64(cb)
	}
	counters.memInUse.Add(-bytes)
	counters.buffers.Add(-int64(len(pms)))
	if a.external {
		externalMem.inUse.Add(-bytes)
	}
	a.pool.put(pms...)
}

// external reports whether d's memory is outside Go's heap (device.OffHeap).
func (d *Dev) external() bool { return d.offHeap }

// poolable reports whether d's memory can be pooled (device.Pooled: its
// Memory is device.Resizable).
func (d *Dev) poolable() bool { return d.pooled }

// allocClass allocates a new buffer of n × dt with room for cbytes (its
// size class, or exactly n × dt when not pooled), first making room under
// the memory limit for external memory.
func (d *Dev) allocClass(dt DType, n, cbytes int, external bool) (device.Memory, error) {
	if external {
		if err := d.makeRoom(int64(cbytes)); err != nil {
			return nil, err
		}
	}
	if !d.poolable() {
		return d.dev.Alloc(dt, n)
	}
	m, err := d.pooler.AllocCap(cbytes) // the whole class, then this buffer's part of it
	if err != nil {
		return nil, err
	}
	m.Resize(dt, n)
	return m, nil
}

// makeRoom keeps external memory within the process's memory limit
// (debug.SetMemoryLimit, set by the kernel from TICK_MEMORY_LIMIT or the
// machine's memory): before allocating size bytes past it, the pools'
// idle memory is freed and unreachable buffers are collected; if the live
// buffers alone would still exceed it, the allocation is refused with an
// error instead of the kernel being killed by the system.
func (d *Dev) makeRoom(size int64) error {
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 || externalMem.inUse.Load()+idleExternal()+size <= limit {
		return nil
	}
	drainPools()
	runtime.GC()
	runtime.Gosched()
	drainPools()
	if used := externalMem.inUse.Load(); used+size > limit {
		return &MemoryLimitError{Device: d.name, Size: size, InUse: used, Limit: limit}
	}
	return nil
}

// MemoryLimitError is an allocation refused because the device memory in
// use would exceed the process's memory limit.
type MemoryLimitError struct {
	Device             string
	Size, InUse, Limit int64
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("%s more on %s would bring tensor memory to %s, over the kernel's memory limit of %s: "+
		"drop tensors you no longer need (set their variables to nil), work on smaller pieces, "+
		"or raise the limit with TICK_MEMORY_LIMIT before starting the kernel",
		mib(e.Size), e.Device, mib(e.InUse+e.Size), mib(e.Limit))
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func mustBuffer(d *Dev, dt DType, n int) *Buffer {
	b, err := newBuffer(d, dt, n)
	if err != nil {
		panic(err)
	}
	return b
}

// Size classes: 64 bytes and below is one class; above, eight classes per
// power of two, so a pooled buffer wastes at most an eighth of its size.
// Buffers over poolMaxBytes are not pooled (class -1): they are freed.
const (
	classesPerOctave = 8
	poolMaxBytes     = 1 << 32
	numClasses       = 1 + (33-6)*classesPerOctave
)

// sizeClass returns the class of a size-byte buffer and the class's bytes.
func sizeClass(size int) (class, cbytes int) {
	if size <= 64 {
		return 0, 64
	}
	if size > poolMaxBytes {
		return -1, size
	}
	k := bits.Len(uint(size - 1)) // 2^(k-1) < size ≤ 2^k, k ≥ 7
	lo, step := 1<<(k-1), 1<<(k-1)/classesPerOctave
	m := (size - lo + step - 1) / step // 1..classesPerOctave
	return 1 + (k-7)*classesPerOctave + m - 1, lo + m*step
}

// poolIdleMax bounds the idle memory a device pool keeps (a quarter of the
// memory limit when that is smaller); what comes back beyond it is freed.
const poolIdleMax = 1 << 30

// bufPool is a device's idle buffers by size class. Buffers come back to
// it from the cleanups of unreachable Buffers.
type bufPool struct {
	alloc   device.Allocator // frees what the pool drops
	mu      sync.Mutex
	free    [numClasses][]device.Memory
	idle    int64     // bytes held
	slab    *bufSlab  // the slab small buffers come from
	slabArg *slabMems // its cleanup's argument
}

// pooledMem is what a Buffer's cleanup returns.
type pooledMem struct {
	pool     *bufPool // nil: free the memory
	alloc    device.Allocator
	mem      device.Memory
	bytes    int
	class    int
	external bool
}

// get returns pooled memory of the class resized to n × dt, or nil.
func (p *bufPool) get(class int, dt DType, n int, external bool) device.Memory {
	if class < 0 {
		return nil
	}
	p.mu.Lock()
	m := p.pop(class)
	p.mu.Unlock()
	if m != nil {
		p.taken(m, dt, n)
	}
	return m
}

// pop takes an idle memory of the class, or returns nil (p.mu held).
func (p *bufPool) pop(class int) device.Memory {
	fl := p.free[class]
	if len(fl) == 0 {
		return nil
	}
	m := fl[len(fl)-1]
	fl[len(fl)-1] = nil
	p.free[class] = fl[:len(fl)-1]
	_, cb := classBytes(class)
	p.idle -= int64(cb)
	return m
}

// taken resizes m, just popped, to n × dt.
func (p *bufPool) taken(m device.Memory, dt DType, n int) {
	m.(device.Resizable).Resize(dt, n)
}

func classBytes(class int) (int, int) {
	if class == 0 {
		return 0, 64
	}
	c := class - 1
	k := c/classesPerOctave + 7
	m := c%classesPerOctave + 1
	lo := 1 << (k - 1)
	return class, lo + m*(lo/classesPerOctave)
}

// releaseMemory is the cleanup of an unreachable Buffer: its memory goes
// back to its pool, or is freed.
func releaseMemory(pm pooledMem) {
	counters.memInUse.Add(-int64(pm.bytes))
	counters.buffers.Add(-1)
	if pm.external {
		externalMem.inUse.Add(-int64(pm.bytes))
	}
	if pm.pool == nil {
		pm.alloc.Free(pm.mem)
		return
	}
	pm.pool.put(pm)
}

// put takes back the memory of pms, freeing what would take the pool past
// its limit (a quarter of the memory limit, at most poolIdleMax).
func (p *bufPool) put(pms ...pooledMem) {
	limit := int64(poolIdleMax)
	if l := debug.SetMemoryLimit(-1); l/4 < limit { // takes the runtime's heap lock: once per call
		limit = l / 4
	}
	var drop []device.Memory
	p.mu.Lock()
	for _, pm := range pms {
		if p.idle+int64(pm.bytes) > limit {
			drop = append(drop, pm.mem)
			continue
		}
		p.free[pm.class] = append(p.free[pm.class], pm.mem)
		p.idle += int64(pm.bytes)
	}
	p.mu.Unlock()
	for _, m := range drop {
		p.alloc.Free(m)
	}
}

// drain frees every idle buffer.
func (p *bufPool) drain() {
	p.mu.Lock()
	var all []device.Memory
	for c := range p.free {
		all = append(all, p.free[c]...)
		clear(p.free[c])
		p.free[c] = p.free[c][:0]
	}
	p.idle = 0
	p.mu.Unlock()
	for _, m := range all {
		p.alloc.Free(m)
	}
}

// drainPools frees the idle buffers of every device.
func drainPools() {
	for _, d := range openDevices(nil) {
		d.pool.drain()
	}
}

// pooledBytes is the bytes held idle by the device pools (all devices;
// external: only those outside Go's heap), summed from the pools when
// asked (a shared counter cost two atomic adds per eager op).
func pooledBytes(external bool) int64 {
	var n int64
	var arr [8]*Dev
	for _, d := range openDevices(arr[:0]) {
		if external && !d.external() {
			continue
		}
		d.pool.mu.Lock()
		n += d.pool.idle
		d.pool.mu.Unlock()
	}
	return n
}

func idleExternal() int64 { return pooledBytes(true) }

// externalGCMin is the least external memory handed out between paced
// collections.
const externalGCMin = 64 << 20

// externalMem paces collections for memory outside Go's heap.
var externalMem struct {
	inUse   atomic.Int64 // bytes of live external buffers
	sinceGC atomic.Int64 // bytes handed out (new or pooled) since the last paced collection
	live    atomic.Int64 // memory live after it: external buffers and Go's heap
	sample  atomic.Bool  // take live at the next allocation
}

// paceExternal accounts size bytes of external memory about to be handed
// out and collects garbage when what was handed out since the last paced
// collection exceeds the memory live after it (external buffers and Go's
// heap, at least externalGCMin): the cleanups of unreachable buffers then
// return theirs to the pool, which the next allocations reuse.
func paceExternal(size int64) {
	if externalMem.sample.Load() && externalMem.sample.CompareAndSwap(true, false) { // a load first: no locked write per buffer
		externalMem.live.Store(externalMem.inUse.Load() + goHeapLive())
	}
	if externalMem.sinceGC.Add(size) < max(externalGCMin, externalMem.live.Load()) {
		return
	}
	externalMem.sinceGC.Store(size)
	runtime.GC()
	runtime.Gosched() // let the cleanup goroutine return what the collection found
	externalMem.sample.Store(true)
}

// goHeapLive is the Go heap marked live by the last collection.
func goHeapLive() int64 {
	s := [1]metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
