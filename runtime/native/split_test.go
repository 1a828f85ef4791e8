package native

import (
	"sync"
	"testing"
	"unsafe"
)

// splitSrc: bump adds 1 to c[i] over its range (a chunk run twice shows);
// meet records the thread of each item, and the chunk at 0 waits (up to
// 2 s) until another chunk has started, so a second chunk can only have
// run on another thread.
const splitSrc = `#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
void bump(void **bufs, int64_t start, int64_t end) {
	int32_t *c = bufs[0];
	for (int64_t i = start; i < end; i++) c[i] += 1;
}
static int started;
void meet(void **bufs, int64_t start, int64_t end) {
	int64_t *tid = bufs[0], me = (int64_t)syscall(SYS_gettid);
	for (int64_t i = start; i < end; i++) tid[i] = me;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	if (start != 0) return;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do clock_gettime(CLOCK_MONOTONIC, &t);
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 2 && t.tv_sec - t0.tv_sec < 2);
}
`

func splitKernels(t *testing.T) (bump, meet *Kernel) {
	t.Helper()
	lib, err := newCompiler(t, t.TempDir()).Compile(splitSrc, "bump")
	if err != nil {
		t.Fatal(err)
	}
	if bump, err = lib.Kernel("bump"); err != nil {
		t.Fatal(err)
	}
	if meet, err = lib.Kernel("meet"); err != nil {
		t.Fatal(err)
	}
	return bump, meet
}

// Every item runs exactly once, with chunk sizes that do and do not divide
// n, more threads than chunks, and launches from many goroutines at once
// (the pool takes one; CallSplit refuses the others, which run alone).
func TestCallSplitCoversEachItemOnce(t *testing.T) {
	bump, _ := splitKernels(t)
	cases := []struct {
		n, size int64
		threads int
	}{{1000, 500, 2}, {1001, 500, 2}, {1000, 1000, 2}, {1000, 7, 3}, {10, 3, 8}, {5000, 1000, 1}, {64, 64, 4}}
	var wg sync.WaitGroup
	var pooled sync.Map
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 40 {
				c := cases[(g+r)%len(cases)]
				buf := allocBufs(t, 1, int(c.n))[0]
				hits := unsafe.Slice((*int32)(buf), c.n)
				clear(hits)
				if bump.CallSplit([]unsafe.Pointer{buf}, c.n, c.size, c.threads) {
					pooled.Store(g, true)
				} else {
					bump.Call([]unsafe.Pointer{buf}, 0, c.n)
				}
				for i, h := range hits {
					if h != 1 {
						t.Errorf("n=%d size=%d threads=%d: item %d run %d times", c.n, c.size, c.threads, i, h)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	pooled.Range(func(any, any) bool { n++; return true })
	if n == 0 {
		t.Error("no launch ran in the pool")
	}
}

// With two threads, the second chunk runs on a thread other than the
// caller's while the first is still running.
func TestCallSplitRunsChunksConcurrently(t *testing.T) {
	_, meet := splitKernels(t)
	const n = 128
	buf := allocBufs(t, 1, 2*n)[0] // an int64 per item
	if !meet.CallSplit([]unsafe.Pointer{buf}, n, n/2, 2) {
		t.Fatal("CallSplit refused with no other launch in flight")
	}
	tid := unsafe.Slice((*int64)(buf), n)
	if tid[0] == tid[n-1] {
		t.Errorf("both chunks ran on thread %d: the pool's helper did not take the second", tid[0])
	}
}
