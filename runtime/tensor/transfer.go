package tensor

// Transfers: copies between the host and a device's own memory (creating
// a tensor on it, reading one back) and between devices (To). Each is a
// real operation: counted (Stats.Transfers, TransferBytes), timed on the
// host (the transfer phase) and, on a device with a clock, by its stamps
// (TransferDevice, read at Synchronize), shown at DEBUG>=2, recorded in a
// profile (EventCopy on the device's transfers lane) and in the facts.
// Copies between two host devices (CPU and GO) go through To too and are
// counted the same way; a tensor created on, or read back from, a host
// device is the plain copy it always was (the transfer phase only).

import (
	"fmt"
	"sync"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
)

// hostSide names Go memory in transfers ("host→CL").
const hostSide = "host"

// discrete reports whether d's memory is its own (not host memory the
// runtime could address directly): copies to and from it are transfers.
func (d *Dev) discrete() bool { return d.stamped != nil || d.async }

// copyIn writes raw into b (a new tensor on b's device).
func copyIn(b *Buffer, raw []byte) {
	d := b.dev
	t0 := monoNow()
	err := d.issue(cmdCopyIn, hostSide, int64(len(raw)), t0, func() error { return d.dev.CopyIn(b.mem, 0, raw) })
	t1 := addPhaseAt(&counters.transferNS, t0)
	if err != nil {
		panic(fmt.Errorf("tensor: copying %d bytes to %s: %w", len(raw), d.name, err))
	}
	if d.discrete() {
		countTransfer(hostSide, d.name, int64(len(raw)), time.Duration(t1-t0))
	}
}

// copyOut reads len(dst) bytes of b from byte off into dst (the device is
// synchronized already).
func copyOut(dst []byte, b *Buffer, off int) {
	d := b.dev
	t0 := monoNow()
	err := d.issue(cmdCopyOut, hostSide, int64(len(dst)), t0, func() error {
		if d.discrete() { // one command: the copy runs in the driver, where the collector does not wait for it
			return d.dev.CopyOut(dst, b.mem, off)
		}
		return copyOutChunked(d.dev.CopyOut, dst, b.mem, off)
	})
	t1 := addPhaseAt(&counters.transferNS, t0)
	if err != nil {
		panic(fmt.Errorf("tensor: copying %d bytes from %s: %w", len(dst), d.name, err))
	}
	if d.discrete() {
		countTransfer(d.name, hostSide, int64(len(dst)), time.Duration(t1-t0))
	}
}

// issue runs one copy on d; on a device with a clock it runs under
// d.execMu and is noted so its stamps are read at the next Synchronize
// (at once under DEBUG>=2, to print its device time).
func (d *Dev) issue(kind cmdKind, peer string, bytes int64, t0 stamp, copyFn func() error) error {
	if d.stamped == nil {
		return copyFn()
	}
	d.execMu.Lock()
	defer d.execMu.Unlock()
	if err := copyFn(); err != nil {
		return err
	}
	d.note(cmdNote{kind: kind, bytes: bytes, peer: peer, enq: t0})
	if debugLevel() >= 2 {
		if err := d.queue.Synchronize(); err != nil {
			return err
		}
		return d.collect()
	}
	return d.drainIfFull()
}

// countTransfer counts one copy of bytes from → to that took host time.
func countTransfer(from, to string, bytes int64, host time.Duration) {
	counters.transfers.Add(1)
	counters.transferBytes.Add(bytes)
	counters.transferHostNS.Add(int64(host))
	noteTransfer(from, to, 1, bytes, host, 0)
	if debugLevel() >= 2 {
		debugTransfer(from, to, bytes, host, takeDebugCopy())
	}
}

// transferMem is transfer between raw memories (a JIT replay's captured
// transfer, with the replay's input swapped in).
func transferMem(dd *Dev, dm device.Memory, sd *Dev, sm device.Memory, off, n int) {
	transfer(&Buffer{dev: dd, mem: dm}, &Buffer{dev: sd, mem: sm}, off, n)
}

// transfer copies n bytes of src from byte off into dst, on other
// devices: it waits for the work a host device has queued on either
// buffer (a device with its own queue orders the copy itself), then
// copies through whichever side is host memory, or a device's own
// Transferer, or through a staging slice.
func transfer(dst, src *Buffer, off, n int) {
	for _, d := range [...]*Dev{src.dev, dst.dev} {
		if !d.async {
			if err := d.waitIdle(); err != nil {
				panic(err)
			}
		}
	}
	t0 := monoNow()
	err := copyBetween(dst, src, off, n, t0)
	t1 := addPhaseAt(&counters.transferNS, t0)
	if err != nil {
		panic(fmt.Errorf("tensor: copying %d bytes from %s to %s: %w", n, src.dev.name, dst.dev.name, err))
	}
	countTransfer(src.dev.name, dst.dev.name, int64(n), time.Duration(t1-t0))
}

func copyBetween(dst, src *Buffer, off, n int, t0 stamp) error {
	if tr, ok := dst.dev.dev.(device.Transferer); ok {
		done, err := tr.Transfer(dst.mem, src.dev.dev, src.mem, n)
		if done || err != nil {
			return err
		}
	}
	if h, ok := src.mem.(device.Host); ok {
		b := h.Bytes()[off : off+n]
		return dst.dev.issue(cmdCopyIn, src.dev.name, int64(n), t0, func() error { return dst.dev.dev.CopyIn(dst.mem, 0, b) })
	}
	if h, ok := dst.mem.(device.Host); ok {
		b := h.Bytes()[:n]
		return src.dev.issue(cmdCopyOut, dst.dev.name, int64(n), t0, func() error { return src.dev.dev.CopyOut(b, src.mem, off) })
	}
	stage := make([]byte, n)
	if err := src.dev.issue(cmdCopyOut, hostSide, int64(n), t0, func() error { return src.dev.dev.CopyOut(stage, src.mem, off) }); err != nil {
		return err
	}
	return dst.dev.issue(cmdCopyIn, hostSide, int64(n), t0, func() error { return dst.dev.dev.CopyIn(dst.mem, 0, stage) })
}

// waitIdle waits until a host device's queue has run every item queued so
// far, leaving any error for the next Synchronize.
func (d *Dev) waitIdle() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending == 0 {
		return nil
	}
	if hook := getWaitHook(); hook != nil {
		return d.waitHook(hook)
	}
	for d.pending > 0 {
		d.idle.Wait()
	}
	return nil
}

// debugTransfer prints a DEBUG>=2 line for a copy: its host time and, on
// a device with a clock, its device time (dev < 0: none).
func debugTransfer(from, to string, bytes int64, host, dev time.Duration) {
	name := to
	if to == hostSide {
		name = from
	}
	line := fmt.Sprintf("%-4s copy %-19s %-22s", name, from+"→"+to, fmt.Sprintf("%d B", bytes))
	for _, t := range []struct {
		what string
		el   time.Duration
	}{{"host", host}, {"device", dev}} {
		if t.el >= 0 {
			s := max(t.el.Seconds(), 1e-9)
			line += fmt.Sprintf(" %s %9.1f µs %8.2f GB/s", t.what, s*1e6, float64(bytes)/s/1e9)
		}
	}
	debugRepeat("%s\n", line)
}

// debugCopy is the device time of the copy whose stamps DEBUG>=2 read last
// (issue reads them at once), for its line; -1 when there is none.
var debugCopy struct {
	sync.Mutex
	el time.Duration
	ok bool
}

func setDebugCopy(el time.Duration) {
	debugCopy.Lock()
	debugCopy.el, debugCopy.ok = el, true
	debugCopy.Unlock()
}

func takeDebugCopy() time.Duration {
	debugCopy.Lock()
	defer debugCopy.Unlock()
	if !debugCopy.ok {
		return -1
	}
	debugCopy.ok = false
	return debugCopy.el
}

// recordCopy records a copy on d's queue that ran from start for el by
// its clock (put on the phase clock).
func recordCopy(d *Dev, name string, bytes int64, enq, start stamp, el time.Duration) {
	prof.writers.Add(1)
	if prof.on.Load() {
		e := rawEvent{kind: EventCopy, dev: d, name: name, bytes: bytes, enq: int64(enq.time().Sub(prof.epoch))}
		e.start = int64(start.time().Sub(prof.epoch))
		e.end = e.start + int64(el)
		if i := prof.n.Add(1) - 1; i < int64(len(prof.buf)) {
			prof.buf[i] = e
		}
	}
	prof.writers.Add(-1)
}
