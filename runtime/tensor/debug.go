package tensor

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// debugState is process-wide like the DEBUG environment variable it mirrors.
var debugState struct {
	level  atomic.Int32
	mu     sync.Mutex
	w      io.Writer
	warned bool
	hook   func() error
	sum    *debugSummary // counting instead of writing per-launch lines
}

func init() {
	if v, err := strconv.Atoi(os.Getenv("DEBUG")); err == nil {
		debugState.level.Store(int32(v))
	}
}

// SetDebug sets the DEBUG level: 0 off; 1 a line per schedule; 2 a line per
// kernel (name, shape, time, GFLOP/s, GB/s; this waits for every kernel);
// 3 the schedule's kernels in detail; 4 each kernel's generated source.
func SetDebug(level int) { debugState.level.Store(int32(level)) }

// DebugLevel returns the current DEBUG level.
func DebugLevel() int { return debugLevel() }

func debugLevel() int { return int(debugState.level.Load()) }

// SetDebugWriter sets where DEBUG output goes (the notebook sets the running
// cell's output). With no writer, DEBUG output is discarded: the runtime never
// writes to the process's stdout. One-time notices are repeated once for each
// new writer.
func SetDebugWriter(w io.Writer) {
	debugState.mu.Lock()
	debugState.w = w
	debugState.warned = false
	debugState.mu.Unlock()
}

// DebugWriter returns the writer DEBUG output goes to (nil: discarded),
// so a caller that redirects it for a while can put it back.
func DebugWriter() io.Writer {
	debugState.mu.Lock()
	defer debugState.mu.Unlock()
	return debugState.w
}

// SetWaitHook installs f, polled about every 10 ms while Synchronize waits; a
// non-nil error from f abandons the wait and is returned (the notebook uses it
// to interrupt a long wait). nil removes the hook.
func SetWaitHook(f func() error) {
	debugState.mu.Lock()
	debugState.hook = f
	debugState.mu.Unlock()
}

func getWaitHook() func() error {
	debugState.mu.Lock()
	defer debugState.mu.Unlock()
	return debugState.hook
}

func debugf(format string, args ...any) {
	debugState.mu.Lock()
	defer debugState.mu.Unlock()
	if debugState.w != nil {
		fmt.Fprintf(debugState.w, format, args...)
	}
}

// debugSyncNotice says once that DEBUG>=2 serializes execution.
func debugSyncNotice() {
	debugState.mu.Lock()
	first := !debugState.warned
	debugState.warned = true
	debugState.mu.Unlock()
	if first {
		debugf("DEBUG>=2: waiting for every kernel to finish to time it; timings with DEBUG on are not representative\n")
	}
}

func debugKernel(d *Dev, k *Kernel, el time.Duration) {
	if summarized(func(s *debugSummary) { s.kernel(d, k, el) }) {
		return
	}
	s := el.Seconds()
	if s <= 0 {
		s = 1e-9
	}
	debugf("%-4s %-24s %-22s %9.1f µs %8.2f GFLOP/s(est) %8.2f GB/s(est)\n",
		d.name, k.Name, "shape="+fmt.Sprint(k.Shape), s*1e6, float64(k.FLOPs())/s/1e9, float64(k.Bytes())/s/1e9)
}

// debugRepeat is debugf for lines written once per schedule or launch: while
// a summary is being taken (SummarizeDebug) identical lines are counted
// instead of written.
func debugRepeat(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if summarized(func(s *debugSummary) { s.line(line) }) {
		return
	}
	debugf("%s", line)
}

// summarized runs f on the summary being taken, if any, and reports
// whether there was one.
func summarized(f func(*debugSummary)) bool {
	debugState.mu.Lock()
	defer debugState.mu.Unlock()
	if debugState.sum == nil {
		return false
	}
	f(debugState.sum)
	return true
}

// SummarizeDebug makes the DEBUG output that repeats for every schedule or
// kernel launch (DEBUG>=1 schedule lines, DEBUG>=2 kernel lines, DEBUG>=3
// kernel keys) countable: until end is called, each such line is counted
// instead of written, and end writes one line per distinct kernel (with its
// launches, total and mean time) and per distinct schedule line (with its
// count), headed by what, then restores normal output. One-time lines
// (compiles, DEBUG=4 sources, notices) are written as they happen. A timing
// magic uses it so that DEBUG=2 around thousands of calls gives a summary,
// not a line per launch. Nested calls count into the outer summary.
func SummarizeDebug(what string) (end func()) {
	debugState.mu.Lock()
	defer debugState.mu.Unlock()
	if debugState.sum != nil {
		return func() {}
	}
	s := &debugSummary{what: what, kernels: map[string]*kernelTally{}, lines: map[string]int{}}
	debugState.sum = s
	return func() {
		debugState.mu.Lock()
		if debugState.sum == s {
			debugState.sum = nil
		}
		debugState.mu.Unlock()
		if text := s.String(); text != "" {
			debugf("%s", text)
		}
	}
}

// debugSummary counts repeated DEBUG lines (see SummarizeDebug).
type debugSummary struct {
	what    string
	kernels map[string]*kernelTally
	korder  []string
	lines   map[string]int
	lorder  []string
	n       int
}

type kernelTally struct {
	dev, name, shape string
	flops, bytes     int64 // per launch (estimates)
	count            int
	total            time.Duration
}

func (s *debugSummary) kernel(d *Dev, k *Kernel, el time.Duration) {
	key := d.name + "\x00" + k.Key()
	t := s.kernels[key]
	if t == nil {
		t = &kernelTally{dev: d.name, name: k.Name, shape: fmt.Sprint(k.Shape), flops: k.FLOPs(), bytes: k.Bytes()}
		s.kernels[key] = t
		s.korder = append(s.korder, key)
	}
	t.count++
	t.total += el
	s.n++
}

func (s *debugSummary) line(l string) {
	if _, ok := s.lines[l]; !ok {
		s.lorder = append(s.lorder, l)
	}
	s.lines[l]++
	s.n++
}

// String is the summary: nothing when nothing was counted.
func (s *debugSummary) String() string {
	if s.n == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DEBUG=%d during %s: %d per-launch lines counted, not printed; one line per kernel and per distinct line:\n", debugLevel(), s.what, s.n)
	for _, key := range s.korder {
		t := s.kernels[key]
		mean := t.total.Seconds() / float64(t.count)
		if mean <= 0 {
			mean = 1e-9
		}
		fmt.Fprintf(&b, "  %-4s %-24s %-22s %d launches, %.3g ms total, %.1f µs mean, %.2f GFLOP/s(est), %.2f GB/s(est)\n",
			t.dev, t.name, "shape="+t.shape, t.count, t.total.Seconds()*1e3, mean*1e6,
			float64(t.flops)/mean/1e9, float64(t.bytes)/mean/1e9)
	}
	for _, l := range s.lorder {
		fmt.Fprintf(&b, "  × %d: %s\n", s.lines[l], strings.TrimRight(l, "\n"))
	}
	return b.String()
}
