package tensor

import (
	"fmt"
	"io"
	"os"
	"strconv"
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
	s := el.Seconds()
	if s <= 0 {
		s = 1e-9
	}
	debugf("%-4s %-24s %-22s %9.1f µs %8.2f GFLOP/s(est) %8.2f GB/s(est)\n",
		d.name, k.Name, "shape="+fmt.Sprint(k.Shape), s*1e6, float64(k.FLOPs())/s/1e9, float64(k.Bytes())/s/1e9)
}
