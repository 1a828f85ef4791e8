package tensor

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Dev is a device: a backend plus a queue drained by its own worker
// goroutine. Realize enqueues kernels and returns, as on an accelerator;
// Synchronize waits until the queue is empty. Get one with Device(name).
type Dev struct {
	name    string
	backend Backend

	mu      sync.Mutex
	cond    *sync.Cond // signals the worker that items arrived
	items   []*work
	pending int           // queued plus running items
	idle    chan struct{} // closed when pending drops to 0
	err     error         // first failure since the last Synchronize

	progMu sync.Mutex
	progs  map[string]Program
}

// launch is one kernel launch: a compiled program and its buffers.
type launch struct {
	k    *Kernel
	prog Program
	bufs []*Buffer
}

// work is one queue item: launches run in order (a JIT replay is one item).
type work struct {
	launches []launch
	mems     [][]Memory // per launch, the Memory of each buffer
}

// devices holds one Dev per backend name; it is process-wide because each
// device owns a worker goroutine and a compile cache that all tensors share.
var devices = struct {
	sync.Mutex
	m map[string]*Dev
}{m: map[string]*Dev{}}

// Device returns the named device ("GO", "CPU", "NULL"), starting its worker
// on first use, so a cell can write tensor.Device("GO").Synchronize(). An
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
	b := lookupBackend(name)
	if b == nil {
		return nil, &DeviceError{Name: name}
	}
	if err := b.Available(); err != nil {
		return nil, &DeviceError{Name: name, Err: err}
	}
	d := &Dev{name: name, backend: b, progs: map[string]Program{}}
	d.cond = sync.NewCond(&d.mu)
	go d.worker()
	devices.m[name] = d
	return d, nil
}

// MustDevice is Device (kept for code written against the first API).
func MustDevice(name string) *Dev { return Device(name) }

// defaultDevice is the device new tensors use; set from $DEVICE at start and
// by SetDefaultDevice (process-wide, like numpy's default dtype).
var defaultDevice = struct {
	sync.Mutex
	name string
}{name: envDevice()}

func envDevice() string {
	if d := os.Getenv("DEVICE"); d != "" {
		return strings.ToUpper(d)
	}
	return "GO"
}

// DefaultDevice is the name of the device new tensors are created on: $DEVICE
// when set, otherwise GO.
func DefaultDevice() string {
	defaultDevice.Lock()
	defer defaultDevice.Unlock()
	return defaultDevice.name
}

// SetDefaultDevice changes the device new tensors are created on.
func SetDefaultDevice(name string) error {
	if _, err := LookupDevice(name); err != nil {
		return err
	}
	defaultDevice.Lock()
	defaultDevice.name = strings.ToUpper(name)
	defaultDevice.Unlock()
	return nil
}

func defaultDev() *Dev {
	d, err := LookupDevice(DefaultDevice())
	if err != nil {
		panic(fmt.Errorf("%w (falling back is not silent on purpose: unset DEVICE to use GO)", err))
	}
	return d
}

// Name is the device's name.
func (d *Dev) Name() string { return d.name }

// String is the device's name.
func (d *Dev) String() string { return d.name }

// Synchronize waits until every kernel enqueued on the device has finished.
// It returns the first kernel failure since the last Synchronize, or the wait
// hook's error (see SetWaitHook) if the wait was interrupted.
func (d *Dev) Synchronize() error {
	t0 := time.Now()
	defer func() { addPhase(&counters.syncWait, t0) }()
	d.mu.Lock()
	ch := d.idle
	busy := d.pending > 0
	d.mu.Unlock()
	if busy {
		if err := waitIdle(ch); err != nil {
			return err
		}
	}
	d.mu.Lock()
	err := d.err
	d.err = nil
	d.mu.Unlock()
	return err
}

// waitIdle waits for ch to close, polling the wait hook every 10 ms.
func waitIdle(ch chan struct{}) error {
	hook := getWaitHook()
	if hook == nil {
		<-ch
		return nil
	}
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ch:
			return nil
		case <-t.C:
			if err := hook(); err != nil {
				return fmt.Errorf("tensor: synchronize interrupted (kernels keep running in the background): %w", err)
			}
		}
	}
}

// SynchronizeAll synchronizes every device that has been used.
func SynchronizeAll() error {
	devices.Lock()
	ds := make([]*Dev, 0, len(devices.m))
	for _, d := range devices.m {
		ds = append(ds, d)
	}
	devices.Unlock()
	var first error
	for _, d := range ds {
		if err := d.Synchronize(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// enqueue hands w to the worker and returns immediately.
func (d *Dev) enqueue(w *work) {
	d.mu.Lock()
	if d.pending == 0 {
		d.idle = make(chan struct{})
	}
	d.pending++
	d.items = append(d.items, w)
	d.mu.Unlock()
	d.cond.Signal()
}

func (d *Dev) worker() {
	for {
		d.mu.Lock()
		for len(d.items) == 0 {
			d.cond.Wait()
		}
		w := d.items[0]
		d.items[0] = nil
		d.items = d.items[1:]
		d.mu.Unlock()

		err := d.run(w)

		d.mu.Lock()
		if err != nil && d.err == nil {
			d.err = err
		}
		d.pending--
		if d.pending == 0 {
			close(d.idle)
			d.items = d.items[:0:0]
		}
		d.mu.Unlock()
	}
}

// run executes the launches of one work item, recovering a kernel panic into
// an error reported by the next Synchronize.
func (d *Dev) run(w *work) (err error) {
	for i, l := range w.launches {
		t0 := time.Now()
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("tensor: kernel %s on %s panicked: %v", l.k.Name, d.name, r)
				}
			}()
			runSplitRows(l.prog, w.mems[i], l.k.OutSize(), l.k.ReduceSize(), rowLen(l.k))
		}()
		el := time.Since(t0)
		counters.deviceNS.Add(int64(el))
		if debugLevel() >= 2 {
			debugKernel(d, l.k, el)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// splitMin is the work (elements × reduce size) below which a launch runs on
// one goroutine: below it, waking workers costs more than it saves.
const splitMin = 1 << 15

// rowLen is the innermost output axis longer than 1: split points are
// rounded to it so a worker gets whole rows (a GEMM tiles whole rows).
func rowLen(k *Kernel) int {
	out := k.OutShape()
	for d := len(out) - 1; d >= 0; d-- {
		if out[d] > 1 {
			return out[d]
		}
	}
	return 1
}

// runSplit runs prog over [0, n), split across GOMAXPROCS goroutines when
// n*perOut is large.
func runSplit(prog Program, mems []Memory, n, perOut int) { runSplitRows(prog, mems, n, perOut, 1) }

// runSplitRows is runSplit with split points at multiples of row when rows
// are shorter than a chunk.
func runSplitRows(prog Program, mems []Memory, n, perOut, row int) {
	workers := runtime.GOMAXPROCS(0)
	if workers <= 1 || n*max(perOut, 1) < splitMin || n < 2 {
		prog.Run(mems, 0, n)
		return
	}
	workers = min(workers, n)
	chunk := (n + workers - 1) / workers
	if row > 1 && row < chunk {
		chunk = (chunk + row - 1) / row * row
	}
	var wg sync.WaitGroup
	for s := chunk; s < n; s += chunk {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			prog.Run(mems, s, min(s+chunk, n))
		}(s)
	}
	prog.Run(mems, 0, min(chunk, n))
	wg.Wait()
}

// program returns the compiled program for k, compiling it on first use.
func (d *Dev) program(k *Kernel) (Program, error) {
	key := k.Key()
	d.progMu.Lock()
	p := d.progs[key]
	d.progMu.Unlock()
	if p != nil {
		counters.cacheHits.Add(1)
		return p, nil
	}
	t0 := time.Now()
	p, err := d.backend.Compile(k)
	addPhase(&counters.compileNS, t0)
	if err != nil {
		return nil, fmt.Errorf("tensor: compiling %s for %s: %w", k.Name, d.name, err)
	}
	counters.compiled.Add(1)
	if debugLevel() >= 4 {
		debugf("compiled %s on %s:\n%s\n", k.Name, d.name, p.Source())
	}
	d.progMu.Lock()
	d.progs[key] = p
	d.progMu.Unlock()
	return p, nil
}
