// bench/streams/streams.c: how fast one thread reads a 4096×4096 float32
// matrix (64 MB, huge pages) when it folds it over axis 0 (Sum(0): one
// output per column), against reading it as one stream. Issue 30 asks
// every 16M reduction for 75% of the read bandwidth; tick's axis-1 and full
// folds reach it, its axis-0 folds read 57-73%. This probe separates the
// fold's arithmetic and stores from the access pattern: every variant but
// "one stream" reads several rows at once (the only way to fold a column
// without walking it down 16 KB strides), and "rows, no stores" does no
// more work per byte than "one stream".
//
//   bench/streams/run.sh            # 5 rounds; medians of 7 passes each
//   NOHUGE=1 bench/streams/run.sh   # the matrix on 4 KB pages (no THP advice)
//   bench/streams/kernels.sh 9      # tick's own axis-0 kernels beside the loops
//
// Variants (GB/s of matrix read, and % of "one stream" in the same round):
//   one stream        the matrix in address order, 4 vector accumulators
//                     (the loop of bench/cpubench's read limit)
//   rows R, no stores R rows at a time, column chunks of 32 floats from
//                     each, summed in registers and dropped: R concurrent
//                     streams, no output traffic (wrong sums, same reads)
//   tick's layout     tick's banded axis-0 fold (render.rowBand): bands of
//                     8 rows, 64 columns at a time held in 4 vectors, the
//                     partials stored between bands (L1 traffic)
//   rows R into L1    R rows at a time, the 4096 partial sums in a 16 KB
//                     array that stays in L1 (loaded, added to, stored)
//   ... (+2 KB)       the same with the partial sums 2 KB off the matrix's
//                     4 KB alignment (no 4K aliasing of loads and stores)
//
// Given kernel libraries after ROUNDS (bench/streams/kernels.sh builds
// them: the C that tick's CPU device compiles for Sum(0), Max(0), Min(0)),
// each round runs "one stream", tick's layout and each library's
// tick_R_axis0 over the whole matrix, in one process: the kernels against
// the loop of their layout, with the memory as it is in that round.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define N 4096
typedef float vf __attribute__((vector_size(64)));
static inline vf ld(const float *p) { vf v; memcpy(&v, p, sizeof v); return v; }
static inline void st(float *p, vf v) { memcpy(p, &v, sizeof v); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static void one_stream(float *o, const float *x, int r) {
	(void)r;
	vf a[4] = {0};
	for (size_t i = 0; i < (size_t)N * N; i += 64)
		for (int u = 0; u < 4; u++) a[u] += ld(&x[i + u * 16]);
	st(o, a[0] + a[1] + a[2] + a[3]);
}

static void rows_no_stores(float *o, const float *x, int R) {
	vf acc = {0};
	for (int kb = 0; kb < N; kb += R) {
		const float *p = x + (int64_t)kb * N;
		for (int j = 0; j < N; j += 32) {
			vf a0 = {0}, a1 = {0};
			for (int s = 0; s < R; s++) { a0 += ld(p + (int64_t)s * N + j); a1 += ld(p + (int64_t)s * N + j + 16); }
			acc += a0 + a1;
		}
	}
	st(o, acc);
}

static void ticks_layout(float *restrict o, const float *restrict x, int B) {
	for (int kb = 0; kb < N; kb += B)
		for (int j0 = 0; j0 < N; j0 += 64) {
			vf a[4];
			for (int u = 0; u < 4; u++) a[u] = kb ? ld(&o[j0 + u * 16]) : (vf){0};
			for (int i = kb; i < kb + B; i++)
				for (int u = 0; u < 4; u++) a[u] += ld(&x[(int64_t)i * N + j0 + u * 16]);
			for (int u = 0; u < 4; u++) st(&o[j0 + u * 16], a[u]);
		}
}

static void rows_into_l1(float *restrict o, const float *restrict x, int R) {
	for (int kb = 0; kb < N; kb += R) {
		const float *p = x + (int64_t)kb * N;
		for (int j = 0; j < N; j += 32) {
			vf a0 = kb ? ld(o + j) : (vf){0}, a1 = kb ? ld(o + j + 16) : (vf){0};
			for (int s = 0; s < R; s++) { a0 += ld(p + (int64_t)s * N + j); a1 += ld(p + (int64_t)s * N + j + 16); }
			st(o + j, a0);
			st(o + j + 16, a1);
		}
	}
}

// rows_into_l1 with the partial sums 2 KB off the input's alignment: a load
// of x[i][j] and the store of o[j] just before it then differ in address
// bits 0-11 (in "rows R into L1" they are equal: both buffers are 4 KB
// aligned, and the core may hold the load back as if it read the store:
// 4K aliasing).
static float *offset_partials;
static void rows_into_l1_off(float *restrict o, const float *restrict x, int R) {
	rows_into_l1(offset_partials, x, R);
	o[5] = offset_partials[5];
}

struct variant {
	const char *name;
	void (*f)(float *, const float *, int);
	int r;
};

// A kernel of tick's CPU device: void tick_R_axis0(void **bufs, int64_t
// start, int64_t end) computes outputs [start, end); bufs[0] is the
// output, bufs[1] the matrix.
typedef void (*kernel)(void **, int64_t, int64_t);
static kernel kernels[8];
static void run_kernel(float *o, const float *x, int i) {
	void *bufs[2] = {o, (void *)x};
	kernels[i](bufs, 0, N);
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	size_t bytes = (size_t)N * N * sizeof(float);
	float *x = aligned_alloc(2 << 20, bytes);
	if (!getenv("NOHUGE")) madvise(x, bytes, MADV_HUGEPAGE);
	for (size_t i = 0; i < (size_t)N * N; i++) x[i] = (float)(i % 7) * 0.25f;
	float *o = aligned_alloc(4096, N * sizeof(float));
	float *o2 = aligned_alloc(4096, N * sizeof(float) + 4096);
	offset_partials = o2 + 2048 / sizeof(float);
	struct variant all[] = {
		{"one stream", one_stream, 0},
		{"rows 1, no stores", rows_no_stores, 1},
		{"rows 2, no stores", rows_no_stores, 2},
		{"rows 4, no stores", rows_no_stores, 4},
		{"rows 8, no stores", rows_no_stores, 8},
		{"tick's layout (bands of 8)", ticks_layout, 8},
		{"rows 1 into L1", rows_into_l1, 1},
		{"rows 4 into L1", rows_into_l1, 4},
		{"rows 1 into L1 (+2 KB)", rows_into_l1_off, 1},
		{"rows 4 into L1 (+2 KB)", rows_into_l1_off, 4},
	};
	struct variant *vs = all;
	int nv = sizeof all / sizeof all[0];
	struct variant with_kernels[2 + 8] = {all[0], all[5]}; // one stream, tick's layout
	if (argc > 2) {
		int nk = argc - 2 > 8 ? 8 : argc - 2;
		for (int i = 0; i < nk; i++) {
			void *h = dlopen(argv[2 + i], RTLD_NOW | RTLD_LOCAL);
			if (!h || !(kernels[i] = (kernel)dlsym(h, "tick_R_axis0"))) {
				fprintf(stderr, "streams: %s: %s\n", argv[2 + i], h ? "no tick_R_axis0" : dlerror());
				return 1;
			}
			const char *base = strrchr(argv[2 + i], '/');
			with_kernels[2 + i] = (struct variant){base ? base + 1 : argv[2 + i], run_kernel, i};
		}
		vs = with_kernels;
		nv = 2 + nk;
	}
	printf("variant\tround\tGB/s\t%% of one stream\n");
	for (int round = 1; round <= rounds; round++) {
		double base = 0;
		for (int v = 0; v < nv; v++) {
			double ts[7];
			for (int r = 0; r < 7; r++) {
				double t0 = now();
				vs[v].f(o, x, vs[v].r);
				ts[r] = now() - t0;
			}
			qsort(ts, 7, sizeof ts[0], cmp);
			double gbs = bytes / ts[3] / 1e9;
			if (v == 0) base = gbs;
			printf("%s\t%d\t%.1f\t%.0f\n", vs[v].name, round, gbs, 100 * gbs / base);
		}
	}
	volatile float sink = o[5];
	(void)sink;
	return 0;
}
