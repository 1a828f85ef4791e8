package main

// The machine's limits, measured with small C kernels built by the same
// compiler and flags as tick's CPU device (package runtime/native) and run
// on every core: peak float32 FLOP/s with fused multiply-adds (what BLAS
// libraries reach) and with separate multiply and add (what tick's kernels
// use outside matmul: they are compiled without contraction so results
// match the GO backend bit for bit), read bandwidth and copy bandwidth (the
// faster of memcpy and a copy with non-temporal stores) at the size of the
// large cases (16M float32, 64 MB per array).

import (
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/tick-kernel/tick/runtime/native"
)

const peakSrc = `#include <stdint.h>
#include <string.h>
#if defined(__AVX512F__) || defined(__FMA__) || defined(__SSE2__)
#include <immintrin.h>
#endif
#if defined(__AVX512F__)
#define VB 64
#elif defined(__AVX__)
#define VB 32
#else
#define VB 16
#endif
typedef float vf __attribute__((vector_size(VB)));
#define NACC 12
static inline vf fma_v(vf a, vf b, vf c) {
#if defined(__AVX512F__)
	return (vf)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
#elif defined(__FMA__)
	return (vf)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
#else
	return a * b + c;
#endif
}
// bufs[0]: float out; iterations end-start; 2*NACC*VB/4 flops per iteration.
void peak_fma(void **bufs, int64_t start, int64_t end) {
	vf acc[NACC], m = (vf){} + 0.999999f, a = (vf){} + 1e-7f;
	for (int i = 0; i < NACC; i++) acc[i] = (vf){} + (float)i;
	for (int64_t it = start; it < end; it++)
		for (int i = 0; i < NACC; i++) acc[i] = fma_v(acc[i], m, a);
	vf s = (vf){};
	for (int i = 0; i < NACC; i++) s += acc[i];
	memcpy(bufs[0], &s, 4);
}
void peak_muladd(void **bufs, int64_t start, int64_t end) {
	vf acc[NACC], m = (vf){} + 0.999999f, a = (vf){} + 1e-7f;
	for (int i = 0; i < NACC; i++) acc[i] = (vf){} + (float)i;
	for (int64_t it = start; it < end; it++)
		for (int i = 0; i < NACC; i++) acc[i] = acc[i] * m + a;
	vf s = (vf){};
	for (int i = 0; i < NACC; i++) s += acc[i];
	memcpy(bufs[0], &s, 4);
}
// bufs[0]: float out (one per call), bufs[1]: float in; reads [start, end).
void bw_read(void **bufs, int64_t start, int64_t end) {
	const float *x = bufs[1];
	vf acc[8] = {};
	int64_t i = start;
	const int64_t L = VB / 4;
	for (; i + 8 * L <= end; i += 8 * L)
		for (int u = 0; u < 8; u++) { vf v; memcpy(&v, x + i + u * L, VB); acc[u] += v; }
	float s = 0;
	for (; i < end; i++) s += x[i];
	for (int u = 0; u < 8; u++) for (int l = 0; l < L; l++) s += acc[u][l];
	memcpy(bufs[0], &s, 4);
}
// bufs[0]: float dst, bufs[1]: float src; copies [start, end).
void bw_copy(void **bufs, int64_t start, int64_t end) {
	memcpy((float *)bufs[0] + start, (const float *)bufs[1] + start, (size_t)(end - start) * 4);
}
// bw_stream is bw_copy with non-temporal stores (what tick's large
// elementwise kernels use, and what memcpy uses only above a size tied to
// the last-level cache): no read of the destination before it is written.
// start and end are multiples of 16 and the buffers 64-byte aligned.
void bw_stream(void **bufs, int64_t start, int64_t end) {
	float *d = (float *)bufs[0];
	const float *s = (const float *)bufs[1];
#if defined(__AVX512F__)
	for (int64_t i = start; i < end; i += 16) _mm512_stream_ps(d + i, _mm512_load_ps(s + i));
#elif defined(__AVX__)
	for (int64_t i = start; i < end; i += 8) _mm256_stream_ps(d + i, _mm256_load_ps(s + i));
#elif defined(__SSE2__)
	for (int64_t i = start; i < end; i += 4) _mm_stream_ps(d + i, _mm_load_ps(s + i));
#else
	memcpy(d + start, s + start, (size_t)(end - start) * 4);
#endif
#if defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__)
	_mm_sfence();
#endif
}
`

type limits struct {
	fma, muladd float64 // GFLOP/s
	fmaCPU      float64 // GFLOP per CPU-second × cores (cputime.go)
	read, copy  float64 // GB/s
	isa         string
}

// measureLimits runs each limit kernel on every core and returns the best of
// several trials.
func measureLimits() (limits, error) {
	c, err := native.Default()
	if err != nil {
		return limits{}, err
	}
	lib, err := c.Compile(peakSrc, "peak_fma", "peak_muladd", "bw_read", "bw_copy", "bw_stream")
	if err != nil {
		return limits{}, err
	}
	k := func(name string) *native.Kernel { kk, _ := lib.Kernel(name); return kk }
	workers := runtime.GOMAXPROCS(0)
	lanes := float64(c.VectorISA().Bytes) / 4
	if lanes < 4 {
		lanes = 4
	}
	var l limits
	l.isa = c.VectorISA().String()
	const iters = 20_000_000
	flops := 2 * 12 * lanes * iters * float64(workers)
	out, err := native.Alloc(64 * workers)
	if err != nil {
		return l, err
	}
	defer native.Free(out)
	l.fma = flops / bestParallel(k("peak_fma"), workers, iters, []unsafe.Pointer{out}, false, 5).Seconds() / 1e9
	l.muladd = flops / bestParallel(k("peak_muladd"), workers, iters, []unsafe.Pointer{out}, false, 5).Seconds() / 1e9
	l.fmaCPU = perCPUSecond(flops/4, func() { bestParallel(k("peak_fma"), workers, iters/4, []unsafe.Pointer{out}, false, 1) }) / 1e9

	const n = 16 << 20 // the size of the large cases (16M float32: 64 MB)
	src, err := native.Alloc(n * 4)
	if err != nil {
		return l, err
	}
	defer native.Free(src)
	dst, err := native.Alloc(n * 4)
	if err != nil {
		return l, err
	}
	defer native.Free(dst)
	fill(src, n)
	fill(dst, n)
	l.read = 4 * n / bestParallel(k("bw_read"), workers, n, []unsafe.Pointer{out, src}, true, 15).Seconds() / 1e9
	// Copy: the faster of memcpy and a copy with non-temporal stores.
	l.copy = 8 * n / min(bestParallel(k("bw_copy"), workers, n, []unsafe.Pointer{dst, src}, true, 15),
		bestParallel(k("bw_stream"), workers, n, []unsafe.Pointer{dst, src}, true, 15)).Seconds() / 1e9
	return l, nil
}

func fill(p unsafe.Pointer, n int) {
	s := unsafe.Slice((*float32)(p), n)
	for i := range s {
		s[i] = float32(i%1000) * 1e-3
	}
}

// bestParallel runs k on every worker and returns the fastest of trials.
// With split, workers share [0, n); otherwise each runs all n iterations.
// Worker w's bufs[0] is moved by 64·w bytes (its own output slot).
func bestParallel(k *native.Kernel, workers, n int, bufs []unsafe.Pointer, split bool, trials int) time.Duration {
	best := time.Duration(1 << 62)
	for t := 0; t < trials; t++ {
		var wg sync.WaitGroup
		t0 := time.Now()
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				b := append([]unsafe.Pointer(nil), bufs...)
				lo, hi := 0, n
				if split { // at multiples of 16 (64 bytes: bw_stream's alignment); n is one
					lo, hi = n*w/workers&^15, n*(w+1)/workers&^15
				}
				if k.Name != "bw_copy" && k.Name != "bw_stream" {
					b[0] = unsafe.Add(b[0], 64*w)
				}
				k.Call(b, int64(lo), int64(hi))
			}(w)
		}
		wg.Wait()
		best = min(best, time.Since(t0))
	}
	return best
}
