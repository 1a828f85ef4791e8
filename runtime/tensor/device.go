package tensor

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/device/host"
)

// Dev is a device: a backend plus a queue drained by its own worker
// goroutine. Realize enqueues kernels and returns, as on an accelerator;
// Synchronize waits until the queue is empty. Get one with Device(name).
type Dev struct {
	name    string
	backend device.Backend
	dev     device.Device
	queue   device.Queue
	// What the device can do beyond the interfaces, asked once at open.
	batch device.BatchLauncher // the queue's, or nil
	async bool                 // the queue is the device's own (device.Asynchronous)
	// spinMu runs Spin's busy-waits beside an own queue one after another,
	// as a device runs its work: n calls cost n × dur, not n × dur / cores.
	spinMu     sync.Mutex
	pooler     device.Pooled // or nil
	pooled     bool          // pooler != nil
	offHeap    bool          // device.OffHeap
	inline     bool          // device.Inliner
	lanes      int           // device.LaneFolder's width, or 0
	stampedDev               // device.Stamped and device.Clock (stamps.go)

	mu      sync.Mutex
	cond    *sync.Cond // signals the worker that items arrived
	items   []*work    // queue: items[head:] are waiting
	head    int
	pending int           // queued plus running items
	idle    *sync.Cond    // broadcast when pending drops to 0
	wake    chan struct{} // (capacity 1) also signalled then, for waiters polling a hook
	err     error         // first failure since the last Synchronize
	execMu  sync.Mutex    // held while an item runs (worker or runInline): items run one at a time, in order

	progMu sync.Mutex
	progs  map[string]device.Program

	// nowMems is launchNow's table of a launch's buffers (d.mu held).
	nowMems [8]device.Memory

	sched schedCache // single-kernel schedules by graph structure (eager.go)
	pool  bufPool    // idle buffers by size class (buffer.go)
}

// launch is one kernel launch: a compiled program and its buffers.
type launch struct {
	k      *Kernel
	prog   device.Program
	bufs   []*Buffer
	xfer   *xferSpec // a transfer a JIT captured (bufs: destination, source), not a kernel
	region string    // the Region it was scheduled in (region.go)
}

// xferSpec is a captured transfer: n bytes from byte off of the source.
type xferSpec struct{ off, n int }

// name is the launch's name in plans and JIT states.
func (l *launch) name() string {
	if l.xfer != nil {
		return "copy " + l.bufs[1].dev.name + "→" + l.bufs[0].dev.name
	}
	return l.k.Name
}

// work is one queue item: launches run in order (a JIT replay is one item).
type work struct {
	launches []launch
	mems     [][]device.Memory // per launch, the Memory of each buffer

	// Filled by prepare, so the worker and the counters do no per-launch
	// work on the hot path.
	progs        []device.Program // per launch, for the queue and batches
	dims         []device.Dims    // per launch, the grid
	small        bool             // every launch is below host.SplitMin: may run as one batch
	tiny         bool             // all launches' work together is below it: may run on the caller (prepare)
	flops, bytes int64            // totals over the launches (estimates)

	pool  *workPool     // a JIT replay's item: returned to its pool once run
	eager *eagerItem    // an eager item: recycled once run (eager.go)
	keep  []*Buffer     // buffers the launches read that nothing else keeps alive
	enq   stamp         // when it was enqueued, set only while a profile is taken
	spin  time.Duration // a Spin item: busy-wait this long instead of launching
}

// prepare fills the fields derived from launches.
func (w *work) prepare() {
	w.progs = make([]device.Program, len(w.launches))
	w.dims = make([]device.Dims, len(w.launches))
	w.small = true
	w.flops, w.bytes = 0, 0
	total := 0
	for i, l := range w.launches {
		if l.xfer != nil { // a captured transfer: the replay runs it
			continue
		}
		w.progs[i] = l.prog
		w.dims[i] = l.prog.Dims()
		work := l.k.ReduceSize()
		if hp, ok := l.prog.(host.Program); ok { // the backend's estimate (a GEMM's is lower)
			work = hp.Work()
		}
		if l.k.OutSize()*max(work, 1) >= host.SplitMin {
			w.small = false
		}
		total += l.k.OutSize() * max(work, 1)
		w.flops += l.k.FLOPs()
		w.bytes += l.k.Bytes()
	}
	// A tiny item may run on the caller when the device is idle
	// (runInline): handing it to the worker costs more than it. A longer
	// item of small launches still goes to the worker, so the caller's own
	// work overlaps it.
	w.tiny = w.small && total < host.SplitMin
}

// devices holds one Dev per backend name; it is process-wide because each
// device owns a worker goroutine and a compile cache that all tensors share.
var devices = struct {
	sync.Mutex
	m    map[string]*Dev // by every name it was asked for ("CL" and "CL:0")
	list []*Dev          // each device once, in the order opened
}{m: map[string]*Dev{}}

// openDevices appends every device opened so far to dst (a caller's
// array on the stack keeps SynchronizeAll free of allocations).
func openDevices(dst []*Dev) []*Dev {
	devices.Lock()
	defer devices.Unlock()
	return append(dst, devices.list...)
}

// Device returns the named device ("GO", "CPU", "NULL", "CL:1"), opening it
// (and starting its worker) on first use, so a cell can write tensor.Device("GO").Synchronize(). An
// unknown or unavailable name panics with a *DeviceError; LookupDevice
// returns it instead.
func Device(name string) *Dev {
	d, err := LookupDevice(name)
	if err != nil {
		panic(err)
	}
	return d
}

// LookupDevice is Device returning the *DeviceError instead of panicking.
func LookupDevice(name string) (*Dev, error) {
	name = strings.ToUpper(name)
	devices.Lock()
	defer devices.Unlock()
	if d := devices.m[name]; d != nil {
		return d, nil
	}
	bname, ordinal, err := device.ParseName(name)
	if err != nil {
		return nil, &DeviceError{Name: name, Err: err}
	}
	canon := bname // device 0 goes by the backend's name: "CL" and "CL:0" are one device
	if ordinal > 0 {
		canon = fmt.Sprintf("%s:%d", bname, ordinal)
	}
	if d := devices.m[canon]; d != nil {
		devices.m[name] = d
		return d, nil
	}
	b := device.Lookup(bname)
	if b == nil {
		return nil, &DeviceError{Name: name}
	}
	if err := b.Available(); err != nil {
		return nil, &DeviceError{Name: name, Err: err}
	}
	dv, err := b.Open(ordinal)
	if err != nil {
		return nil, &DeviceError{Name: name, Err: err}
	}
	d := newDev(canon, b, dv)
	devices.m[name], devices.m[canon] = d, d
	devices.list = append(devices.list, d)
	return d, nil
}

// newDev wraps an opened device, asking once what it can do beyond the
// interfaces.
func newDev(name string, b device.Backend, dv device.Device) *Dev {
	d := &Dev{name: name, backend: b, dev: dv, queue: dv.Queue(), progs: map[string]device.Program{}}
	d.pool.alloc = dv
	d.batch, _ = d.queue.(device.BatchLauncher)
	if a, ok := d.queue.(device.Asynchronous); ok {
		d.async = a.Asynchronous()
	}
	d.pooler, d.pooled = dv.(device.Pooled)
	if o, ok := dv.(device.OffHeap); ok {
		d.offHeap = o.OffHeap()
	}
	if in, ok := dv.(device.Inliner); ok {
		d.inline = in.InlineSmall()
	}
	if lf, ok := dv.(device.LaneFolder); ok {
		d.lanes = lf.FoldLanes()
	}
	d.stamped, _ = d.queue.(device.Stamped)
	d.clock, _ = dv.(device.Clock)
	d.cond = sync.NewCond(&d.mu)
	d.idle = sync.NewCond(&d.mu)
	d.wake = make(chan struct{}, 1)
	if !d.async {
		go d.worker()
	}
	return d
}

// MustDevice is Device (kept for code written against the first API).
func MustDevice(name string) *Dev { return Device(name) }

// defaultDevice is the device new tensors use, chosen on first use (not at
// process start: probing the C compiler takes milliseconds) and changed by
// SetDefaultDevice; process-wide, like numpy's default dtype.
var defaultDevice = struct {
	sync.Mutex
	name   string // "" until chosen
	reason string // why it was chosen, for DefaultDeviceReason
}{}

// preferredDevices are tried in order when $DEVICE is not set: the first
// whose backend is available becomes the default.
var preferredDevices = []string{"CPU", "GO"}

// DefaultDevice is the name of the device new tensors are created on. It is
// chosen on first use: $DEVICE when set (an unusable name fails on the first
// tensor operation, never silently), else CPU when C kernels work here, else
// GO (CPUStatus says why CPU is unavailable). SetDefaultDevice changes it.
// For the backend behind it: Device(DefaultDevice()).Backend().
func DefaultDevice() string {
	defaultDevice.Lock()
	name, chosen := defaultDevice.name, false
	if name == "" {
		var fellBack bool
		name, defaultDevice.reason, fellBack = chooseDefault()
		defaultDevice.name, chosen = name, fellBack
	}
	reason := defaultDevice.reason
	defaultDevice.Unlock()
	if chosen {
		// Said once, at any DEBUG level: a user who expected native
		// kernels must learn why they got the pure-Go ones.
		debugf("tensor: using device %s because %s\n", name, reason)
	}
	return name
}

// DefaultDeviceReason says in one line why DefaultDevice is what it is.
func DefaultDeviceReason() string {
	DefaultDevice()
	defaultDevice.Lock()
	defer defaultDevice.Unlock()
	return defaultDevice.reason
}

// chooseDefault picks the default device; fellBack reports that a preferred
// device was skipped because it cannot run here.
func chooseDefault() (name, reason string, fellBack bool) {
	if d := os.Getenv("DEVICE"); d != "" {
		return strings.ToUpper(d), "set by the DEVICE environment variable", false
	}
	var skipped []string
	for _, n := range preferredDevices {
		b := device.Lookup(n)
		if b == nil {
			continue
		}
		err := b.Available()
		if err == nil {
			if len(skipped) == 0 {
				return n, "the first available of " + strings.Join(preferredDevices, ", "), false
			}
			return n, strings.Join(skipped, "; "), true
		}
		skipped = append(skipped, fmt.Sprintf("%s unavailable (%v)", n, err))
	}
	return "GO", strings.Join(skipped, "; "), true
}

// SetDefaultDevice changes the device new tensors are created on.
func SetDefaultDevice(name string) error {
	if _, err := LookupDevice(name); err != nil {
		return err
	}
	defaultDevice.Lock()
	defaultDevice.name = strings.ToUpper(name)
	defaultDevice.reason = "set by SetDefaultDevice"
	defaultDevice.Unlock()
	return nil
}

func defaultDev() *Dev {
	d, err := LookupDevice(DefaultDevice())
	if err != nil {
		panic(fmt.Errorf("%w (falling back is not silent on purpose: unset DEVICE to use the default)", err))
	}
	return d
}

// Backend describes the device's backend in one line, for provenance in
// timing output: for example "CPU (C via /usr/bin/cc -O3 -march=native)" or
// "GO (pure-Go closures; matmul: AVX-512 12×32 fused multiply-add)".
func (d *Dev) Backend() string {
	if ds, ok := d.dev.(device.Describer); ok {
		return ds.Describe()
	}
	return d.Info().String()
}

// Name is the device's name.
func (d *Dev) Name() string { return d.name }

// String is the device's name.
func (d *Dev) String() string { return d.name }

// Synchronize waits until every kernel enqueued on the device has finished.
// It returns the first kernel failure since the last Synchronize, or the wait
// hook's error (see SetWaitHook) if the wait was interrupted. It allocates
// nothing, so timing loops that synchronize see no garbage from it.
func (d *Dev) Synchronize() error {
	d.mu.Lock()
	if d.pending == 0 && d.err == nil && !d.async && d.stamped == nil {
		// Nothing to wait for or report (an idle host device: its queue's
		// Synchronize returns at once): no time in the wait phase, and
		// none spent reading the clock for it.
		d.mu.Unlock()
		return nil
	}
	d.mu.Unlock()
	t0 := time.Now()
	d.mu.Lock()
	if d.pending > 0 {
		if hook := getWaitHook(); hook == nil {
			for d.pending > 0 {
				d.idle.Wait()
			}
		} else if err := d.waitHook(hook); err != nil {
			d.mu.Unlock()
			addPhase(&counters.syncWait, t0)
			return err
		}
	}
	err := d.err
	d.err = nil
	d.mu.Unlock()
	if qerr := d.queue.Synchronize(); qerr != nil && err == nil { // a device with its own queue waits here
		err = fmt.Errorf("tensor: %s: %w", d.name, qerr)
	}
	if d.stamped != nil {
		d.execMu.Lock()
		if serr := d.collect(); serr != nil && err == nil {
			err = fmt.Errorf("tensor: %s: %w", d.name, serr)
		}
		d.execMu.Unlock()
	}
	addPhase(&counters.syncWait, t0)
	return err
}

// timers are reused by waitHook so polling a hook allocates nothing.
var timers = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}}

// waitHook waits (d.mu held, released while waiting) until pending is 0,
// calling hook about every 10 ms and giving up with its error.
func (d *Dev) waitHook(hook func() error) error {
	t := timers.Get().(*time.Timer)
	defer timers.Put(t)
	for d.pending > 0 {
		d.mu.Unlock()
		t.Reset(10 * time.Millisecond)
		select {
		case <-d.wake:
		case <-t.C:
		}
		t.Stop()
		if err := hook(); err != nil {
			d.mu.Lock()
			return fmt.Errorf("tensor: synchronize interrupted (kernels keep running in the background): %w", err)
		}
		d.mu.Lock()
	}
	d.signalIdle() // pass the wake on to any other waiter
	return nil
}

// signalIdle wakes every waiter (d.mu held, pending is 0).
func (d *Dev) signalIdle() {
	d.idle.Broadcast()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// spinItems recycles Spin's queue items, so a loop of Spin calls allocates
// nothing in the steady state.
var spinItems = sync.Pool{New: func() any { return &work{} }}

// Spin enqueues a busy-wait of dur on the device's worker and returns at
// once: a device workload of known cost (dur of device time, next to no
// host time) for checking what a timing method measures. Timed with
// synchronization, a call costs dur plus the enqueue; timed without, only
// the enqueue, and the work is still queued. It counts as one kernel launch
// with no FLOPs or bytes; a JIT does not capture it. A device with a queue
// of its own (CL) has no worker to spin on: there the busy-wait runs on a
// goroutine beside its queue, which Synchronize waits for too, but it is
// not ordered with the device's kernels; Spins run one after another.
func (d *Dev) Spin(dur time.Duration) {
	if dur <= 0 {
		return
	}
	w := spinItems.Get().(*work)
	w.spin = dur
	counters.launched.Add(1)
	d.enqueue(w)
}

// Pending is the number of queue items the device has not finished (queued
// or running): 0 means Synchronize would return at once.
func (d *Dev) Pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pending
}

// SynchronizeAll synchronizes every device that has been used.
func SynchronizeAll() error {
	var first error
	var arr [8]*Dev
	for _, d := range openDevices(arr[:0]) {
		if err := d.Synchronize(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// enqueue hands w to the worker and returns immediately. A device with a
// queue of its own has no worker: its launches are enqueued on the
// caller's goroutine (which returns once the device has them).
func (d *Dev) enqueue(w *work) {
	if d.async && w.spin > 0 {
		d.spinBeside(w)
		return
	}
	if d.async {
		d.runAsync(w)
		return
	}
	noteWork(d, w)
	if prof.on.Load() {
		w.enq = monoNow() // the phase clock, like the kernel's start (clock.go)
	}
	d.mu.Lock()
	d.pending++
	d.items = append(d.items, w)
	d.mu.Unlock()
	d.cond.Signal()
}

// runInline runs w on the calling goroutine when the device is idle (no
// item queued or running) and reports whether it did; otherwise the caller
// enqueues w. The caller recycles w. For small kernels (an eager op's, a
// scheduled item's or a JIT replay's, all below host.SplitMin), handing
// them to the worker (a goroutine wake-up, often an OS thread's on the
// other core: 3.5 µs of a 64×64 matmul's 10 µs on 2 threads) costs more
// than the kernels: the queue would run them next anyway, and Synchronize
// and errors behave as if they had been queued (pending counts the item
// while it runs; a failure is reported by the next Synchronize).
func (d *Dev) runInline(w *work) bool {
	d.mu.Lock()
	if d.pending > 0 {
		d.mu.Unlock()
		return false
	}
	d.pending++
	d.mu.Unlock()
	noteWork(d, w)
	if prof.on.Load() {
		w.enq = monoNow() // a pooled item's stamp is from its last launch
	}
	d.execMu.Lock()
	err := d.run(w)
	d.execMu.Unlock()
	d.done(err)
	return true
}

// inlineSmall reports whether the device's small kernels may run on the
// caller when it is idle: host backends whose kernels only compute
// (device.Inliner; not the test backends that block on purpose).
func (d *Dev) inlineSmall() bool { return d.inline }

// runAsync enqueues w's launches on a device's own queue from the calling
// goroutine; d.execMu keeps items whole and in order. An enqueue failure
// is reported by the next Synchronize, as a kernel's would be.
func (d *Dev) runAsync(w *work) {
	noteWork(d, w)
	if prof.on.Load() {
		w.enq = monoNow()
	}
	d.execMu.Lock()
	err := d.run(w)
	d.execMu.Unlock()
	if err != nil {
		d.mu.Lock()
		if d.err == nil {
			d.err = err
		}
		d.mu.Unlock()
	}
	d.recycle(w)
}

// spinBeside runs a Spin item of a device without a worker on a goroutine
// that Synchronize waits for (pending counts it).
func (d *Dev) spinBeside(w *work) {
	noteWork(d, w)
	d.mu.Lock()
	d.pending++
	d.mu.Unlock()
	go func() {
		d.spinMu.Lock()
		err := d.run(w)
		d.spinMu.Unlock()
		d.recycle(w)
		d.done(err)
	}()
}

// done ends a pending item: it keeps its error for the next Synchronize
// and wakes the waiters when the device is idle.
func (d *Dev) done(err error) {
	d.mu.Lock()
	if err != nil && d.err == nil {
		d.err = err
	}
	d.pending--
	if d.pending == 0 {
		d.signalIdle()
	}
	d.mu.Unlock()
}

// recycle returns a run item to where it came from.
func (d *Dev) recycle(w *work) {
	if w.pool != nil {
		w.pool.put(w)
	} else if w.eager != nil {
		w.eager.release()
	} else if w.spin > 0 {
		spinItems.Put(w)
	}
}

func (d *Dev) worker() {
	for {
		d.mu.Lock()
		for d.head == len(d.items) {
			d.cond.Wait()
		}
		w := d.items[d.head]
		d.items[d.head] = nil
		d.head++
		if d.head == len(d.items) { // empty: reuse the slice from the start
			d.items, d.head = d.items[:0], 0
		}
		d.mu.Unlock()

		d.execMu.Lock()
		err := d.run(w)
		d.execMu.Unlock()
		d.recycle(w)
		d.done(err)
	}
}

// run executes the launches of one work item, recovering a kernel panic into
// an error reported by the next Synchronize. An item of several small
// launches runs as one batch when the backend can (one timing for the item);
// DEBUG>=2, and a profile being taken, run and time each launch on its own.
func (d *Dev) run(w *work) (err error) {
	cur := -1
	defer func() {
		if r := recover(); r != nil {
			name := "batch"
			if cur >= 0 {
				name = w.launches[cur].k.Name
			}
			err = panicError(d, name, r)
		}
	}()
	if w.spin > 0 {
		t0 := time.Now()
		for time.Since(t0) < w.spin {
		}
		counters.deviceNS.Add(int64(time.Since(t0)))
		return nil
	}
	dbg := debugLevel() >= 2
	rec := prof.on.Load()
	if d.batch != nil && w.small && len(w.launches) > 1 && !dbg {
		if rec {
			if d.runBatchTimed(w) {
				return nil
			}
		} else {
			t0 := monoNow()
			if d.batch.LaunchBatch(w.progs, w.mems, w.dims, nil) {
				if d.stamped != nil {
					for i := range w.launches {
						d.note(cmdNote{kind: cmdKernel, k: w.launches[i].k, region: w.launches[i].region, enq: t0})
					}
					return d.drainIfFull()
				}
				counters.deviceNS.Add(int64(max(monoNow(), t0) - t0))
				return nil
			}
		}
	}
	for i := range w.launches {
		l := &w.launches[i]
		cur = i
		t0 := monoNow()
		if err := d.queue.Launch(w.progs[i], w.mems[i], w.dims[i]); err != nil {
			return launchError(d, l.k, err)
		}
		if d.stamped != nil { // timed by the device's clock (stamps.go)
			d.note(cmdNote{kind: cmdKernel, k: l.k, region: l.region, enq: t0})
			continue
		}
		el := time.Duration(max(monoNow(), t0) - t0)
		counters.deviceNS.Add(int64(el))
		if rec {
			recordKernel(d, l.k, l.region, w.enq, t0, el)
		}
		if dbg {
			debugKernel(d, l.k, el)
		}
	}
	if d.stamped != nil {
		// DEBUG>=2's wait for the kernels (and their lines, by the device's
		// clock) is the caller's SynchronizeAll after the launch, a wait
		// of its own (EventSync), not launch work the device overlaps.
		return d.drainIfFull()
	}
	return nil
}

// launchOne launches k's program p on the caller (launchNow), a kernel
// panic recovered into an error as run does.
func (d *Dev) launchOne(k *Kernel, p device.Program, mems []device.Memory, dims device.Dims) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(d, k.Name, r)
		}
	}()
	if err := d.queue.Launch(p, mems, dims); err != nil {
		return launchError(d, k, err)
	}
	return nil
}

func panicError(d *Dev, kernel string, r any) error {
	return fmt.Errorf("tensor: kernel %s on %s panicked: %v", kernel, d.name, r)
}

func launchError(d *Dev, k *Kernel, err error) error {
	return fmt.Errorf("tensor: launching %s on %s: %w", k.Name, d.name, err)
}

// cached returns k's compiled program, or nil if it is not compiled yet.
func (d *Dev) cached(k *Kernel) device.Program {
	d.progMu.Lock()
	defer d.progMu.Unlock()
	return d.progs[k.Key()]
}

// program returns the compiled program for k, compiling it on first use.
func (d *Dev) program(k *Kernel) (device.Program, error) {
	key := k.Key()
	d.progMu.Lock()
	p := d.progs[key]
	d.progMu.Unlock()
	if p != nil {
		counters.cacheHits.Add(1)
		noteKernel(d, k, CacheMemory)
		if prof.on.Load() {
			t := time.Now()
			recordCompile(d, k, "memory cache", t, t)
		}
		return p, nil
	}
	t0 := time.Now()
	p, err := d.dev.Compile(k)
	addPhase(&counters.compileNS, t0)
	if prof.on.Load() {
		recordCompile(d, k, compileOrigin(p), t0, time.Now())
	}
	if err != nil {
		var se *device.SourceError
		if errors.As(err, &se) && debugLevel() >= 4 {
			err = fmt.Errorf("%w\nsource:\n%s", err, se.Source)
		}
		// The one place a compile error gets the package prefix: backends
		// return theirs without it.
		return nil, fmt.Errorf("tensor: compiling %s for %s: %w", k.Name, d.name, err)
	}
	counters.compiled.Add(1)
	outcome := CacheCompiled
	if c, ok := p.(device.Cached); ok {
		if c.CacheOrigin() == device.DiskCache {
			outcome = CacheDisk
		}
		if debugLevel() >= 2 {
			debugf("%-4s compile %-18s from %s in %.2f ms\n", d.name, k.Name, c.CacheOrigin(), time.Since(t0).Seconds()*1e3)
		}
	}
	if outcome == CacheDisk {
		counters.diskHits.Add(1)
	}
	noteKernel(d, k, outcome)
	if debugLevel() >= 4 {
		debugf("compiled %s on %s:\n%s\n", k.Name, d.name, p.Source())
	}
	d.progMu.Lock()
	d.progs[key] = p
	d.progMu.Unlock()
	return p, nil
}
