package tensor

// Facts: what the runtime did during a stretch of code, recorded as values
// so a timing magic can say which device ran a statement, which tensors it
// read, how each kernel was found in the compile cache and which JIT calls
// it made, without parsing debug text or re-evaluating the user's code.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// CacheOutcome says how a kernel's program was found.
type CacheOutcome string

// Cache outcomes.
const (
	// CacheCompiled: the backend compiled the kernel (for CPU: the C
	// compiler ran).
	CacheCompiled CacheOutcome = "compiled"
	// CacheMemory: the program was in this process's cache.
	CacheMemory CacheOutcome = "memory hit"
	// CacheDisk: the native backend loaded the object from its disk cache
	// instead of compiling it.
	CacheDisk CacheOutcome = "disk hit"
)

// KernelFact is one compile-cache lookup.
type KernelFact struct {
	Name   string       `json:"name"`
	Device string       `json:"device"`
	Cache  CacheOutcome `json:"cache"`
}

// JITCallFact is one call of a JIT: its number (1-based, since the JIT was
// made or Reset), what it did ("cold": ran the function; "capture";
// "replay") and its input signature ("[256] float32 on CPU").
type JITCallFact struct {
	Call   int      `json:"call"`
	Phase  string   `json:"phase"`
	Inputs []string `json:"inputs"`
}

// TensorFact describes a tensor the recorded code read.
type TensorFact struct {
	Shape  []int  `json:"shape"`
	DType  DType  `json:"dtype"`
	Device string `json:"device"`
}

// String renders the tensor as "[256] float32 on CPU", the form JIT
// signatures use.
func (t TensorFact) String() string { return fmt.Sprintf("%v %s on %s", t.Shape, t.DType, t.Device) }

// Facts is what a recording saw, each list in the order it happened.
type Facts struct {
	// Kernels are the compile-cache lookups.
	Kernels []KernelFact `json:"kernels,omitempty"`
	// JITCalls are the calls of any JIT.
	JITCalls []JITCallFact `json:"jit_calls,omitempty"`
	// Devices are the devices work was enqueued on, each once.
	Devices []string `json:"devices,omitempty"`
	// Reads are the tensors read that the recorded code did not write
	// itself: inputs of eager kernels, JIT inputs and tensors copied out
	// (ToSlice, Float32s, Item), each buffer once.
	Reads []TensorFact `json:"reads,omitempty"`
	// DeviceTimes are the kernels' own times on devices with a clock
	// (CL): per kernel and device, the launches whose stamps were read
	// (at a Synchronize inside the recording) and their summed time.
	DeviceTimes []DeviceTimeFact `json:"device_times,omitempty"`
	// Transfers are the copies between the host and a device's own
	// memory, and between devices, per direction.
	Transfers []TransferFact `json:"transfers,omitempty"`
}

// DeviceTimeFact is a kernel's time by its device's clock.
type DeviceTimeFact struct {
	Name     string        `json:"name"`
	Device   string        `json:"device"`
	Launches int           `json:"launches"`
	Time     time.Duration `json:"device_ns"`
}

// TransferFact is the copies in one direction: From and To are device
// names, or "host" for Go memory (creating a tensor, reading one back).
type TransferFact struct {
	From   string        `json:"from"`
	To     string        `json:"to"`
	Count  int           `json:"count"`
	Bytes  int64         `json:"bytes"`
	Host   time.Duration `json:"host_ns"`             // on the host's clock, the copy calls
	Device time.Duration `json:"device_ns,omitempty"` // on the device's clock, where it has one (stamps read by a Synchronize inside the recording)
}

// facts is the recording in progress: process-wide, like the counters,
// because kernels are launched from deep inside Realize on any device. The
// atomic flag keeps the cost of an event site to one load when nothing is
// recorded.
var facts struct {
	on  atomic.Bool
	mu  sync.Mutex
	cur *factRecording
}

type factRecording struct {
	f       Facts
	written map[*Buffer]bool // buffers a recorded kernel wrote
	read    map[*Buffer]bool
	devs    map[string]bool
}

// RecordFacts starts recording what the runtime does and returns the
// function that stops the recording and returns what it saw. One recording
// runs at a time: while one is active, RecordFacts returns a stop function
// that returns empty Facts and leaves the active one alone.
func RecordFacts() (stop func() Facts) {
	facts.mu.Lock()
	defer facts.mu.Unlock()
	if facts.cur != nil {
		return func() Facts { return Facts{} }
	}
	r := &factRecording{written: map[*Buffer]bool{}, read: map[*Buffer]bool{}, devs: map[string]bool{}}
	facts.cur = r
	facts.on.Store(true)
	return func() Facts {
		facts.mu.Lock()
		defer facts.mu.Unlock()
		if facts.cur == r {
			facts.cur = nil
			facts.on.Store(false)
		}
		return r.f
	}
}

// noteFact runs f on the active recording, if there is one.
func noteFact(f func(r *factRecording)) {
	if !facts.on.Load() {
		return
	}
	facts.mu.Lock()
	defer facts.mu.Unlock()
	if facts.cur != nil {
		f(facts.cur)
	}
}

func noteKernel(d *Dev, k *Kernel, c CacheOutcome) {
	noteFact(func(r *factRecording) {
		r.f.Kernels = append(r.f.Kernels, KernelFact{Name: k.Name, Device: d.name, Cache: c})
	})
}

// noteJITCall records call number n of j, in phase, with inputs in (read)
// and, for a replay, the captured outputs it writes.
func noteJITCall(j *JITFunc, n int, phase string, in []*Tensor) {
	noteFact(func(r *factRecording) {
		c := JITCallFact{Call: n, Phase: phase}
		for _, s := range j.sig {
			c.Inputs = append(c.Inputs, s.String())
		}
		r.f.JITCalls = append(r.f.JITCalls, c)
		for _, t := range in {
			r.noteRead(t.l.buf)
		}
		for _, b := range j.state { // parameters: what a replay computes on besides its inputs
			r.noteRead(b)
		}
		if phase == "replay" {
			for _, o := range j.outs {
				r.written[o.buf] = true
			}
		}
	})
}

// noteWork records the device of a queue item and, for eager work (not a
// replay, whose buffers are the capture's), what its launches read and
// wrote.
func noteWork(d *Dev, w *work) {
	noteFact(func(r *factRecording) {
		if !r.devs[d.name] {
			r.devs[d.name] = true
			r.f.Devices = append(r.f.Devices, d.name)
		}
		if w.pool != nil {
			return
		}
		for _, l := range w.launches {
			for _, b := range l.bufs[1:] {
				r.noteRead(b)
			}
			if len(l.bufs) > 0 {
				r.written[l.bufs[0]] = true
			}
		}
	})
}

// noteDeviceTime adds one launch of k on d and its time by d's clock.
func noteDeviceTime(d *Dev, k *Kernel, el time.Duration) {
	noteFact(func(r *factRecording) {
		for i := range r.f.DeviceTimes {
			if f := &r.f.DeviceTimes[i]; f.Name == k.Name && f.Device == d.name {
				f.Launches++
				f.Time += el
				return
			}
		}
		r.f.DeviceTimes = append(r.f.DeviceTimes, DeviceTimeFact{Name: k.Name, Device: d.name, Launches: 1, Time: el})
	})
}

// noteTransfer adds a copy from → to of bytes taking host (and, once its
// stamps are read, device) time; count is 0 for a device time arriving
// after the copy was counted.
func noteTransfer(from, to string, count int, bytes int64, host, dev time.Duration) {
	noteFact(func(r *factRecording) {
		for i := range r.f.Transfers {
			if f := &r.f.Transfers[i]; f.From == from && f.To == to {
				f.Count += count
				f.Bytes += bytes
				f.Host += host
				f.Device += dev
				return
			}
		}
		r.f.Transfers = append(r.f.Transfers, TransferFact{From: from, To: to, Count: count, Bytes: bytes, Host: host, Device: dev})
	})
}

// noteCopyOut records a buffer copied out to the host.
func noteCopyOut(b *Buffer) { noteFact(func(r *factRecording) { r.noteRead(b) }) }

func (r *factRecording) noteRead(b *Buffer) {
	if b == nil || r.written[b] || r.read[b] {
		return
	}
	r.read[b] = true
	shape := b.shape
	if shape == nil {
		shape = []int{b.n}
	}
	r.f.Reads = append(r.f.Reads, TensorFact{Shape: append([]int(nil), shape...), DType: b.dtype, Device: b.dev.name})
}
