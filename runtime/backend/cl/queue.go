package cl

import (
	"fmt"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
)

// Alloc creates a buffer of n elements of dt on the device.
func (d *Device) Alloc(dt ir.DType, n int) (device.Memory, error) {
	m, err := d.AllocCap(n * dt.Size())
	if err != nil {
		return nil, err
	}
	m.Resize(dt, n)
	return m, nil
}

// AllocCap creates a buffer of bytes for the runtime's pool.
func (d *Device) AllocCap(bytes int) (device.Resizable, error) {
	m, err := createBuffer(d.ctx, bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %d bytes: %w", d.name(), bytes, err)
	}
	return &Memory{m: m, size: bytes, cap: bytes}, nil
}

// Resize makes m a buffer of n elements of dt within its allocation.
func (m *Memory) Resize(dt ir.DType, n int) { m.size = n * dt.Size() }

// Free releases the buffer (the runtime frees only memory no queued
// command uses).
func (d *Device) Free(m device.Memory) {
	if cm, ok := m.(*Memory); ok && cm.m != nil {
		releaseMem(cm.m)
		cm.m = nil
	}
}

func mem(m device.Memory) (*Memory, error) {
	cm, ok := m.(*Memory)
	if !ok {
		return nil, fmt.Errorf("%T is not OpenCL memory", m)
	}
	return cm, nil
}

// CopyIn writes src into dst at off; it returns once src may be reused
// (a blocking write, in order after the queue's earlier commands).
func (d *Device) CopyIn(dst device.Memory, off int, src []byte) error {
	cm, err := mem(dst)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var ev handle
	if err := write(d.q, cm.m, off, src, &ev); err != nil {
		return fmt.Errorf("%s: copying %d bytes in: %w", d.name(), len(src), err)
	}
	d.keep(ev)
	return nil
}

// CopyOut reads len(dst) bytes of src from off into dst, after the
// queue's earlier commands (a blocking read).
func (d *Device) CopyOut(dst []byte, src device.Memory, off int) error {
	cm, err := mem(src)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var ev handle
	if err := read(d.q, cm.m, off, dst, &ev); err != nil {
		return fmt.Errorf("%s: copying %d bytes out: %w", d.name(), len(dst), err)
	}
	d.keep(ev)
	return nil
}

// keep records a command's event for Stamps (d.mu held). An empty copy
// has none.
func (d *Device) keep(ev handle) {
	if ev != nil {
		d.evs = append(d.evs, ev)
	}
}

// Launch enqueues p over dims with bufs and returns at once.
func (d *Device) Launch(p device.Program, bufs []device.Memory, dims device.Dims) error {
	prog, ok := p.(*Program)
	if !ok {
		return fmt.Errorf("%s: %T is not an OpenCL program", d.name(), p)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	args, err := d.argsOf(d.args[:0], bufs)
	d.args = args
	if err != nil {
		return err
	}
	var grid [6]uintptr
	dim := fill(grid[:], dims)
	var ev handle
	if err := launch(d.q, prog.kernel, args, dim, &grid, &ev); err != nil {
		return fmt.Errorf("%s: launching %s (global %v, local %v): %w", d.name(), prog.name, dims.Global, dims.Local, err)
	}
	d.keep(ev)
	return nil
}

// argsOf appends the buffers' OpenCL handles to args.
func (d *Device) argsOf(args []handle, bufs []device.Memory) ([]handle, error) {
	for _, b := range bufs {
		cm, err := mem(b)
		if err != nil {
			return args, err
		}
		args = append(args, cm.m)
	}
	return args, nil
}

// fill writes dims as OpenCL's global and local sizes (local all zero when
// the device chooses) and returns the number of dimensions used.
func fill(grid []uintptr, dims device.Dims) int {
	dim := 1
	for i := range 3 {
		grid[i], grid[3+i] = uintptr(dims.Global[i]), uintptr(dims.Local[i])
		if dims.Global[i] > 1 {
			dim = i + 1
		}
	}
	if dims.Local[0] == 0 {
		grid[3], grid[4], grid[5] = 0, 0, 0
	}
	return dim
}

// LaunchBatch enqueues a run of launches in one cgo call (a JIT replay).
// It does not time launches on the host (elapsed): the device's stamps
// (Stamps) time them.
func (d *Device) LaunchBatch(progs []device.Program, bufs [][]device.Memory, dims []device.Dims, elapsed []int64) bool {
	if elapsed != nil || len(progs) == 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ks, d.nargs, d.dim, d.args = d.ks[:0], d.nargs[:0], d.dim[:0], d.args[:0]
	d.dims = grow(d.dims, 6*len(progs))
	for i, p := range progs {
		prog, ok := p.(*Program)
		if !ok {
			return false
		}
		var err error
		if d.args, err = d.argsOf(d.args, bufs[i]); err != nil {
			return false
		}
		d.ks = append(d.ks, prog.kernel)
		d.nargs = append(d.nargs, uint32(len(bufs[i])))
		d.dim = append(d.dim, uint32(fill(d.dims[6*i:6*i+6], dims[i])))
	}
	d.bevs = grow(d.bevs, len(progs))
	done, err := launchBatch(d.q, d.ks, d.nargs, d.args, d.dim, d.dims, d.bevs)
	for _, ev := range d.bevs[:done] {
		d.keep(ev)
	}
	clear(d.bevs)
	if err != nil {
		if done == 0 {
			return false // nothing enqueued: the runtime launches one by one and reports the error
		}
		// Some launches are enqueued and cannot be taken back: the rest
		// would run twice if the runtime retried the batch.
		panic(fmt.Errorf("%s: launch %d of a batch: %w", d.name(), done+1, err))
	}
	return true
}

// Synchronize waits until every command has finished.
func (d *Device) Synchronize() error {
	if err := finish(d.q); err != nil {
		return fmt.Errorf("%s: %w", d.name(), err)
	}
	return nil
}

// Stamps appends the device-clock stamps of every command since the last
// call and releases their events. It first waits for exactly those
// commands: the runtime calls it after Synchronize, but another goroutine
// may have enqueued commands between that wait and this call, and a
// command that has not finished has no stamps yet
// (CL_PROFILING_INFO_NOT_AVAILABLE). A command that failed has none
// either: the error says so and no stamp is made up for it.
func (d *Device) Stamps(dst []device.Times) ([]device.Times, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.evs)
	if n == 0 {
		return dst, nil
	}
	if cap(d.raw) < 4*n {
		d.raw = make([]uint64, 4*n)
	}
	raw := d.raw[:4*n]
	werr := waitAll(d.evs)
	err := times(d.evs, raw)
	if werr != nil {
		err = fmt.Errorf("waiting for %d commands before reading their stamps: %w", n, werr)
	}
	clear(d.evs)
	d.evs = d.evs[:0]
	for i := range n {
		r := raw[4*i : 4*i+4]
		dst = append(dst, device.Times{Queued: int64(r[0]), Submitted: int64(r[1]), Started: int64(r[2]), Ended: int64(r[3])})
	}
	if err != nil {
		return dst, fmt.Errorf("%s: reading the commands' stamps: %w", d.name(), err)
	}
	return dst, nil
}

// Bracket enqueues a marker between two readings of the host's clock and
// returns them with the marker's queued stamp on the device's clock.
func (d *Device) Bracket(now func() int64) (before, queued, after int64, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ev handle
	before = now()
	err = marker(d.q, &ev)
	after = now()
	if err != nil {
		return 0, 0, 0, err
	}
	if err = wait(ev); err != nil {
		return 0, 0, 0, err
	}
	var raw [4]uint64
	if err = times([]handle{ev}, raw[:]); err != nil {
		return 0, 0, 0, err
	}
	return before, int64(raw[0]), after, nil
}

// grow returns s with length n, reusing its array when it is large enough
// (a replay's batch allocates nothing in the steady state).
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
