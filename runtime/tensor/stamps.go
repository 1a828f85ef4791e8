package tensor

// Device clocks. A device whose queue stamps its commands (device.Stamped:
// OpenCL's profiling events) is timed by its own clock: the runtime notes
// each command it issues there (a launch, a copy in or out) in issue order,
// and at every Synchronize reads the stamps of all of them at once. They
// give DeviceExec and TransferDevice in the counters, device times in the
// facts, the per-kernel DEBUG=2 lines and the kernel and copy events of a
// profile. The commands are noted under the device's execMu, which every
// command on such a device is issued under, so notes and stamps are in the
// same order.
//
// Putting device stamps on the host's timeline (profiles) needs the offset
// between the clocks: the device's queued stamp of an empty command
// (device.Clock.Bracket) lies between two host readings taken around its
// enqueue, so the offset is the bracket's middle minus the stamp, within
// half the bracket's width. The tightest of five brackets is kept for two
// seconds; the drift of the clocks in between is not corrected.

import (
	"time"

	"github.com/tick-kernel/tick/runtime/device"
)

// cmdKind is what a noted command was.
type cmdKind uint8

const (
	cmdKernel  cmdKind = iota
	cmdCopyIn          // host or another device → this device
	cmdCopyOut         // this device → host or another device
)

// cmdNote is one command issued on a stamped device.
type cmdNote struct {
	kind   cmdKind
	seen   uint8   // what was recording when it was issued: seenFacts, seenProfile
	k      *Kernel // cmdKernel
	region string  // cmdKernel: the Region it was scheduled in
	bytes  int64   // copies
	peer   string  // copies: the other side ("host" or a device name)
	enq    stamp   // when the host issued it (phase clock)
}

// What a command is reported to: only recordings that were on when it
// was issued (a kernel launched before a profile started is not in it).
const (
	seenFacts uint8 = 1 << iota
	seenProfile
)

// recording says which recordings are on now, for cmdNote.seen.
func recording() uint8 {
	var s uint8
	if facts.on.Load() {
		s |= seenFacts
	}
	if prof.on.Load() {
		s |= seenProfile
	}
	return s
}

// maxNotes bounds the commands a stamped device keeps between two
// Synchronizes: beyond it the queue is drained (and its stamps read) on
// the caller, so a loop that never synchronizes holds a bounded number of
// the driver's events.
const maxNotes = 1 << 14

// note records a command just issued on d (d.execMu held).
func (d *Dev) note(c cmdNote) {
	c.seen = recording()
	d.cmds = append(d.cmds, c)
}

// drainIfFull synchronizes d's queue and reads its stamps when too many
// commands are pending (d.execMu held).
func (d *Dev) drainIfFull() error {
	if len(d.cmds) < maxNotes {
		return nil
	}
	if err := d.queue.Synchronize(); err != nil {
		return err
	}
	return d.collect()
}

// collect reads the stamps of the noted commands (called after the
// queue's Synchronize, d.execMu held; the queue's Stamps waits for those
// other goroutines issued since) and reports them: counters,
// facts, DEBUG lines, profile events.
func (d *Dev) collect() error {
	if len(d.cmds) == 0 {
		return nil
	}
	ts, err := d.stamped.Stamps(d.stamps[:0])
	d.stamps = ts[:0]
	cmds := d.cmds
	d.cmds = d.cmds[:0]
	if err != nil {
		return err
	}
	if len(ts) != len(cmds) {
		debugf("%-4s %d commands but %d stamps: device times of this stretch are not reported\n", d.name, len(cmds), len(ts))
		return nil
	}
	dbg := debugLevel() >= 2
	var off int64
	if prof.on.Load() {
		off = d.hostOffset()
	}
	for i, c := range cmds {
		t := ts[i]
		el := time.Duration(max(t.Ended-t.Started, 0))
		rec := c.seen&seenProfile != 0 && prof.on.Load()
		switch c.kind {
		case cmdKernel:
			counters.deviceNS.Add(int64(el))
			counters.clockNS.Add(int64(el))
			counters.clockKernels.Add(1)
			if c.seen&seenFacts != 0 {
				noteDeviceTime(d, c.k, el)
			}
			if rec {
				recordKernel(d, c.k, c.region, c.enq, stamp(t.Started+off), el)
			}
			if dbg {
				debugKernel(d, c.k, el)
			}
		default:
			counters.transferDeviceNS.Add(int64(el))
			counters.transfersClocked.Add(1)
			from, to := c.peer, d.name
			if c.kind == cmdCopyOut {
				from, to = d.name, c.peer
			}
			if c.seen&seenFacts != 0 {
				noteTransfer(from, to, 0, 0, 0, el)
			}
			if rec {
				recordCopy(d, from+"→"+to, c.bytes, c.enq, stamp(t.Started+off), el)
			}
			if dbg { // printed with the copy's host time by countTransfer
				setDebugCopy(el)
			}
		}
	}
	clear(cmds) // drop the kernels
	return nil
}

// hostOffset is what to add to d's device stamps to put them on the phase
// clock (see the file comment), measured at most every two seconds.
func (d *Dev) hostOffset() int64 {
	if d.clock == nil {
		return 0
	}
	now := monoNow()
	if d.offAt != 0 && time.Duration(now-d.offAt) < 2*time.Second {
		return d.off
	}
	best := int64(-1)
	for range 5 {
		b, q, a, err := d.clock.Bracket(func() int64 { return int64(monoNow()) })
		if err != nil {
			break
		}
		if w := a - b; best < 0 || w < best {
			best, d.off = w, (a+b)/2-q
		}
	}
	if best >= 0 {
		d.offAt, d.offErr = now, time.Duration(best/2)
	}
	return d.off
}

// ClockOffset says how device stamps are put on the host's clock for the
// named device: the offset last measured and its error bound, or ok false
// when the device has no clock of its own.
func ClockOffset(name string) (offset, bound time.Duration, ok bool) {
	d, err := LookupDevice(name)
	if err != nil || d.clock == nil {
		return 0, 0, false
	}
	d.execMu.Lock()
	defer d.execMu.Unlock()
	d.hostOffset()
	return time.Duration(d.off), d.offErr, d.offAt != 0
}

// clockBound is the error bound of the offset last measured (0: none yet).
func (d *Dev) clockBound() time.Duration {
	d.execMu.Lock()
	defer d.execMu.Unlock()
	return d.offErr
}

// stampedDev is the part of a Dev for device clocks.
type stampedDev struct {
	stamped device.Stamped // the queue's, or nil
	clock   device.Clock   // the device's, or nil
	cmds    []cmdNote      // commands since the last collect (execMu)
	stamps  []device.Times // collect's scratch
	off     int64          // device stamp + off = phase-clock stamp
	offErr  time.Duration  // half the bracket
	offAt   stamp          // when off was measured (0: never)
}
