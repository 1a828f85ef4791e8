package timing

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"time"
)

// fakeClock is a synthetic clock: time moves only when a workload spends it
// or when the clock is read (each read costs read), and readings are
// rounded down to res.
type fakeClock struct {
	t, res, read time.Duration
}

func (c *fakeClock) Now() time.Duration {
	c.t += c.read
	return c.t / c.res * c.res
}

// workload is a synthetic statement on a synthetic device. Each call costs
// host time (enqueue) and device time; the device runs queued work in the
// background and Sync waits for it. A JIT is modelled through the probe:
// call 1 compiles, call 2 captures, later calls replay.
type workload struct {
	c        *fakeClock
	host     time.Duration // host time per call (enqueue)
	device   time.Duration // device time per call
	coldHost time.Duration // extra host time of the first call (compilation)
	syncCost time.Duration
	async    bool
	jit      bool // model JIT compile / capture / replay
	noReplay bool // the JIT captures on call 2 and never reports a replay
	debug    int
	gcInCall bool    // force a GC cycle inside every call
	scale    float64 // multiplies host and device time; 0 means 1
	noise    float64 // each Call's time is scaled by 1 ± noise (uniform)
	drift    float64 // times grow by this fraction per second of clock time
	rng      *rand.Rand
	kernels  int64 // kernels launched per call; 0 means 3
	// afterGC is extra host time of the first call after a forced
	// collection (runtime.GC): the allocator's caches and the CPU's caches
	// refilling, as a real statement pays after one.
	afterGC time.Duration
	// perCall is host time per Call(n) invocation, whatever n: the
	// interpreter's call into the compiled loop.
	perCall time.Duration
	// wrongFrom, when > 0, is the first call whose result is wrong (see
	// value and check).
	wrongFrom int64
	// null models a device that runs nothing (for the facts).
	null bool

	calls    int64
	devFree  time.Duration
	p        Probe
	forced   uint64 // forced collections seen at the last call
	value    int64  // the statement's result: the call number, or -1 when wrong
	rec      *Facts // the recording in progress
	recorded int    // recordings taken
}

func newWorkload(host time.Duration) *workload {
	return &workload{c: &fakeClock{res: 1, read: 20}, host: host, syncCost: time.Microsecond}
}

func (w *workload) target() Target {
	return Target{Call: w.call, Sync: w.sync, Probe: w.probe, Record: w.record}
}

// check is a --check on the workload's result.
func (w *workload) check() (bool, string, error) {
	return w.value >= 0, fmt.Sprintf("value is %d", w.value), nil
}

// record starts a recording of facts: the JIT calls (call number and
// kind) and the device.
func (w *workload) record() func() Facts {
	w.rec = &Facts{}
	w.recorded++
	return func() Facts {
		f := *w.rec
		w.rec = nil
		f.Devices = []Device{{Name: "SYN", Backend: "synthetic", Computes: !w.null}}
		return f
	}
}

// forcedGCs reads the runtime's count of forced collections.
func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func (w *workload) call(n int) error {
	s := w.scale
	if s == 0 {
		s = 1
	}
	if w.noise > 0 {
		s *= 1 + w.noise*(2*w.rng.Float64()-1)
	}
	s *= 1 + w.drift*w.c.t.Seconds()
	w.c.t += w.perCall
	if w.afterGC > 0 {
		if f := forcedGCs(); f != w.forced {
			w.forced = f
			w.c.t += w.afterGC
		}
	}
	for range n {
		w.calls++
		h := time.Duration(float64(w.host) * s)
		if w.calls == 1 {
			h += w.coldHost
			if w.jit {
				w.p.Compiles += 3
			}
		}
		w.value = w.calls
		if w.wrongFrom > 0 && w.calls >= w.wrongFrom {
			w.value = -1
		}
		if w.jit {
			kind := CallOrdinary
			switch {
			case w.calls == 2:
				w.p.JITCaptures++
				kind = CallCapture
			case w.calls > 2 && !w.noReplay:
				w.p.JITReplays++
				kind = CallReplay
			case w.calls > 2:
				kind = CallCapture
			}
			if w.rec != nil {
				w.rec.JIT = append(w.rec.JIT, JITCall{Call: int(w.calls), Kind: kind})
			}
		}
		if w.kernels > 0 {
			w.p.Kernels += w.kernels
		} else {
			w.p.Kernels += 3
		}
		w.p.FLOPs += 1e6
		w.p.Bytes += 4e6
		w.c.t += h
		d := time.Duration(float64(w.device) * s)
		if w.async {
			w.devFree = max(w.devFree, w.c.t) + d
		} else {
			w.c.t += d
		}
		if w.gcInCall {
			runtime.GC()
		}
	}
	return nil
}

func (w *workload) sync() error {
	w.c.t = max(w.c.t, w.devFree) + w.syncCost
	return nil
}

func (w *workload) probe() Probe {
	p := w.p
	p.Async, p.Debug = w.async, w.debug
	return p
}
