package main

// The machine's limits, measured with small C kernels built by the same
// compiler as tick's CPU device (package runtime/native) and timed like
// every case (timing.go: the median over samples):
//
//   - peak float32 FLOP/s with fused multiply-adds on the widest vectors
//     the CPU has (AVX-512 where present, whatever width tick's kernels are
//     built for: the functions carry their own target attribute), and on
//     256-bit vectors (AVX2), with 1 and 2 threads;
//   - bandwidth of read-only (a sum), copy (the faster of memcpy and a copy
//     with non-temporal stores) and read-modify-write (x = x*a + b in
//     place), with 1 and 2 threads, at the sizes of the cases (4K, 256K and
//     16M float32: in L1, in L2, in memory), counting bytes read plus bytes
//     written. Small sizes repeat the kernel in each thread so a sample
//     lasts long enough, without a thread start per pass.

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/native"
)

const peakSrc = `#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#define NACC 12
// bufs[0]: float out; iterations end-start; 2*NACC*(lanes) flops per iteration.
#if defined(__x86_64__)
__attribute__((target("avx512f")))
void peak_fma512(void **bufs, int64_t start, int64_t end) {
	__m512 acc[NACC], m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-7f);
	for (int i = 0; i < NACC; i++) acc[i] = _mm512_set1_ps((float)i);
	for (int64_t it = start; it < end; it++)
		for (int i = 0; i < NACC; i++) acc[i] = _mm512_fmadd_ps(acc[i], m, a);
	__m512 s = acc[0];
	for (int i = 1; i < NACC; i++) s = _mm512_add_ps(s, acc[i]);
	float o = _mm512_reduce_add_ps(s);
	memcpy(bufs[0], &o, 4);
}
__attribute__((target("avx2,fma")))
void peak_fma256(void **bufs, int64_t start, int64_t end) {
	__m256 acc[NACC], m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-7f);
	for (int i = 0; i < NACC; i++) acc[i] = _mm256_set1_ps((float)i);
	for (int64_t it = start; it < end; it++)
		for (int i = 0; i < NACC; i++) acc[i] = _mm256_fmadd_ps(acc[i], m, a);
	__m256 s = acc[0];
	for (int i = 1; i < NACC; i++) s = _mm256_add_ps(s, acc[i]);
	float o[8];
	_mm256_storeu_ps(o, s);
	memcpy(bufs[0], o, 4);
}
#endif
#if defined(__AVX512F__)
#define VB 64
#elif defined(__AVX__)
#define VB 32
#else
#define VB 16
#endif
typedef float vf __attribute__((vector_size(VB)));
// bufs[0]: float out (one per call), bufs[1]: float in; reads [start, end), reps times.
// The accumulators live across repetitions and are summed once at the end:
// summing their 128 lanes in order after every pass took longer than a
// pass over 4K floats in L1 (a limit that read 92 GB/s).
void bw_read(void **bufs, int64_t start, int64_t end, int64_t reps) {
	const float *x = bufs[1];
	const int64_t L = VB / 4;
	float s = 0;
	vf acc[8] = {};
	for (int64_t r = 0; r < reps; r++) {
		int64_t i = start;
		for (; i + 8 * L <= end; i += 8 * L)
			for (int u = 0; u < 8; u++) { vf v; memcpy(&v, x + i + u * L, VB); acc[u] += v; }
		for (; i < end; i++) s += x[i];
		__asm__ volatile("" ::: "memory"); // x may have changed: read it again
	}
	for (int u = 0; u < 8; u++) for (int l = 0; l < L; l++) s += acc[u][l];
	memcpy(bufs[0], &s, 4);
}
// bufs[0]: float dst, bufs[1]: float src; copies [start, end).
void bw_copy(void **bufs, int64_t start, int64_t end, int64_t reps) {
	for (int64_t r = 0; r < reps; r++) {
		memcpy((float *)bufs[0] + start, (const float *)bufs[1] + start, (size_t)(end - start) * 4);
		__asm__ volatile("" ::: "memory");
	}
}
// bw_stream is bw_copy with non-temporal stores (what tick's large
// elementwise kernels use, and memcpy only above a size tied to the
// last-level cache). start and end are multiples of 16, the buffers
// 64-byte aligned.
void bw_stream(void **bufs, int64_t start, int64_t end, int64_t reps) {
	float *d = (float *)bufs[0];
	const float *s = (const float *)bufs[1];
	for (int64_t r = 0; r < reps; r++) {
#if defined(__AVX512F__)
		for (int64_t i = start; i < end; i += 16) _mm512_stream_ps(d + i, _mm512_load_ps(s + i));
#elif defined(__AVX__)
		for (int64_t i = start; i < end; i += 8) _mm256_stream_ps(d + i, _mm256_load_ps(s + i));
#elif defined(__SSE2__)
		for (int64_t i = start; i < end; i += 4) _mm_stream_ps(d + i, _mm_load_ps(s + i));
#else
		memcpy(d + start, s + start, (size_t)(end - start) * 4);
#endif
#if defined(__SSE2__)
		_mm_sfence();
#endif
	}
}
// bw_rmw: x = x*a + b in place over [start, end) (bufs[0]).
void bw_rmw(void **bufs, int64_t start, int64_t end, int64_t reps) {
	float *x = bufs[0];
	for (int64_t r = 0; r < reps; r++) {
		for (int64_t i = start; i < end; i++) x[i] = x[i] * 0.5f + 0.25f;
		__asm__ volatile("" ::: "memory");
	}
}
// The kernels above take reps; native kernels are called with (bufs, start,
// end): these wrappers read reps from bufs[2].
#define WRAP(f) void f##_k(void **bufs, int64_t start, int64_t end) { f(bufs, start, end, *(int64_t *)bufs[2]); }
WRAP(bw_read)
WRAP(bw_copy)
WRAP(bw_stream)
WRAP(bw_rmw)
`

// limitsNow measures and prints the machine's limits.
func limitsNow() {
	if err := measureLimits(); err != nil {
		fmt.Fprintln(os.Stderr, "cpubench: machine limits:", err)
		os.Exit(1)
	}
}

func measureLimits() error {
	c, err := native.Default()
	if err != nil {
		return err
	}
	syms := []string{"bw_read_k", "bw_copy_k", "bw_stream_k", "bw_rmw_k"}
	x86 := runtime.GOARCH == "amd64"
	if x86 {
		syms = append(syms, "peak_fma512", "peak_fma256")
	}
	lib, err := c.Compile(peakSrc, syms...)
	if err != nil {
		return err
	}
	k := func(name string) *native.Kernel { kk, _ := lib.Kernel(name); return kk }
	fmt.Printf("#limits\tkernels for %s; host CPU vector FMA: %s\n", c.VectorISA(), hostFMA())
	maxT := runtime.GOMAXPROCS(0)
	out, err := native.Alloc(64 * 8)
	if err != nil {
		return err
	}
	defer native.Free(out)
	if x86 {
		for _, w := range []struct {
			name, sym, flag string
			lanes           int
		}{{"fma 512-bit", "peak_fma512", "avx512f", 16}, {"fma 256-bit", "peak_fma256", "avx2", 8}} {
			if !hostHas(w.flag) {
				continue
			}
			for t := 1; t <= min(2, maxT); t++ {
				const iters = 2_000_000
				d := measure(budget(), func() { parallel(k(w.sym), t, iters, false, []unsafe.Pointer{out}) })
				flops := 2 * 12 * float64(w.lanes) * iters * float64(t)
				emit("peak", "-", fmt.Sprintf("%s %dT", w.name, t), flops/d.Seconds()/1e9, "GFLOP/s", "-")
			}
		}
	}
	return bandwidths(k, maxT, out)
}

// bandwidths measures read, copy and read-modify-write bandwidth at each
// case size with 1 and (if GOMAXPROCS allows) 2 threads.
func bandwidths(k func(string) *native.Kernel, maxT int, out unsafe.Pointer) error {
	for _, n := range fullSizes() {
		src, err := native.Alloc(n * 4)
		if err != nil {
			return err
		}
		dst, err := native.Alloc(n * 4)
		if err != nil {
			native.Free(src)
			return err
		}
		fill(src, n)
		fill(dst, n)
		repsBuf, _ := native.Alloc(8)
		reps := max(1, (32<<20)/(n*4)) // a pass over ≥ 32 MB per sample
		*(*int64)(repsBuf) = int64(reps)
		for t := 1; t <= min(2, maxT); t++ {
			run := func(name string, bufs ...unsafe.Pointer) time.Duration {
				return measure(budget(), func() { parallel(k(name), t, n, true, append(bufs, repsBuf)) })
			}
			b := float64(n) * 4 * float64(reps)
			emit("bandwidth", sizeName(n), fmt.Sprintf("read %dT", t), b/run("bw_read_k", out, src).Seconds()/1e9, "GB/s", "-")
			cp := min(run("bw_copy_k", dst, src), run("bw_stream_k", dst, src))
			emit("bandwidth", sizeName(n), fmt.Sprintf("copy %dT", t), 2*b/cp.Seconds()/1e9, "GB/s", "-")
			emit("bandwidth", sizeName(n), fmt.Sprintf("rmw %dT", t), 2*b/run("bw_rmw_k", dst, src).Seconds()/1e9, "GB/s", "-")
		}
		native.Free(repsBuf)
		native.Free(src)
		native.Free(dst)
	}
	return nil
}

func budget() time.Duration {
	if *quick {
		return 40 * time.Millisecond
	}
	return 200 * time.Millisecond
}

func fill(p unsafe.Pointer, n int) {
	s := unsafe.Slice((*float32)(p), n)
	for i := range s {
		s[i] = float32(i%1000) * 1e-3
	}
}

// parallel runs k on t goroutines and waits. With split, they share
// [0, n) at multiples of 16 elements (64 bytes: bw_stream's alignment);
// otherwise each runs n iterations and bufs[0] (a peak kernel's output) is
// moved by 64 bytes per worker (its own slot). (bw_read's workers all write
// their 4-byte result to bufs[0]: a value nobody reads.)
func parallel(k *native.Kernel, t, n int, split bool, bufs []unsafe.Pointer) {
	var wg sync.WaitGroup
	for w := 0; w < t; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			b := append([]unsafe.Pointer(nil), bufs...)
			lo, hi := 0, n
			if split {
				lo, hi = n*w/t&^15, n*(w+1)/t&^15
			} else {
				b[0] = unsafe.Add(b[0], 64*w)
			}
			k.Call(b, int64(lo), int64(hi))
		}(w)
	}
	wg.Wait()
}

// hostHas reports whether /proc/cpuinfo lists the flag.
func hostHas(flag string) bool {
	data, err := os.ReadFile("/proc/cpuinfo")
	return err == nil && strings.Contains(string(data), " "+flag+" ")
}

func hostFMA() string {
	switch {
	case hostHas("avx512f"):
		return "AVX-512 (512-bit)"
	case hostHas("avx2") && hostHas("fma"):
		return "AVX2+FMA (256-bit)"
	}
	return "none measured"
}
