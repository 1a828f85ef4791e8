//go:build cgo && unix

package native

/*
#cgo linux LDFLAGS: -ldl -lpthread
#cgo noescape tick_call
#cgo nocallback tick_call
#cgo noescape tick_run_plan
#cgo nocallback tick_run_plan
#cgo noescape tick_run_flat
#cgo nocallback tick_run_flat
#cgo noescape tick_run_flat_timed
#cgo nocallback tick_run_flat_timed
#cgo noescape tick_split
#cgo nocallback tick_split
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>

typedef void (*tick_kernel_fn)(void **bufs, int64_t start, int64_t end);

static void tick_call(void *fn, void **bufs, int64_t start, int64_t end) {
	((tick_kernel_fn)fn)(bufs, start, end);
}

// tick_run_plan runs n steps in one crossing: step i calls fns[i] with
// args[i] over [starts[i], ends[i]).
static void tick_run_plan(void **fns, void ***args, int64_t *starts, int64_t *ends, int64_t n) {
	for (int64_t i = 0; i < n; i++) {
		((tick_kernel_fn)fns[i])(args[i], starts[i], ends[i]);
	}
}

// tick_run_flat runs n calls: call i is fns[i](flat + offs[i], se[2i], se[2i+1]).
static void tick_run_flat(void **fns, void **flat, int64_t *offs, int64_t *se, int64_t n) {
	for (int64_t i = 0; i < n; i++) {
		((tick_kernel_fn)fns[i])(flat + offs[i], se[2 * i], se[2 * i + 1]);
	}
}

static int64_t tick_mono_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// tick_run_flat_timed is tick_run_flat that also reads the monotonic clock
// before the first call and after each one: ts[0..n] (for profiles).
static void tick_run_flat_timed(void **fns, void **flat, int64_t *offs, int64_t *se, int64_t n, int64_t *ts) {
	ts[0] = tick_mono_ns();
	for (int64_t i = 0; i < n; i++) {
		((tick_kernel_fn)fns[i])(flat + offs[i], se[2 * i], se[2 * i + 1]);
		ts[i + 1] = tick_mono_ns();
	}
}

// The split pool: helper threads of its own (pthreads, not Go's), which
// run chunks of one split launch at a time beside the caller. While a
// launch runs here Go sees one thread in a cgo call and its other Ps idle.
// Run on goroutines instead, a launch on every P puts every P in a cgo call,
// and Go's sysmon then takes a P back from its call (it has no idle P to
// spare) and stays awake, every 20 µs, for the next millisecond: on 2 vCPUs
// each of those wake-ups preempts one of the two threads computing (a 512³
// matmul's halves took 1.2 and 1.7 ms, the slow one switched out 9–19
// times; here both take 1.3 ms).
typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t wake, fin;
	int helpers;         // threads started (guarded by mu)
	atomic_ulong gen;    // bumped by each launch (written under mu)
	int active;          // helpers inside the current launch (mu)
	atomic_int busy;     // a launch is in flight
	tick_kernel_fn fn;   // the launch: written under mu before gen moves,
	void **bufs;         // unchanged until busy is released
	int64_t n, size;
	int chunks;
	atomic_int next, done;
} tick_pool_t;

static tick_pool_t tick_pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .fin = PTHREAD_COND_INITIALIZER};

// TICK_POOL_SPIN_NS: after a launch a helper polls for the next one, and
// the caller for the helpers' chunks, this long before they sleep on a
// condition variable: a %timeit loop of launches then pays no thread
// wake-up (in a VM an inter-processor interrupt, 20-50 us) per call; a
// 256^3 matmul on 2 threads ran at 103-126 GFLOP/s without it, against
// 127-136 on Go's goroutines, whose scheduler polls likewise.
#define TICK_POOL_SPIN_NS 50000

static inline void tick_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

// tick_pool_work runs chunks of the current launch until none is left.
static void tick_pool_work(tick_pool_t *p) {
	for (;;) {
		int i = atomic_fetch_add(&p->next, 1);
		if (i >= p->chunks) return;
		int64_t s = (int64_t)i * p->size, e = s + p->size < p->n ? s + p->size : p->n;
		p->fn(p->bufs, s, e);
		atomic_fetch_add(&p->done, 1);
	}
}

static void *tick_pool_helper(void *arg) {
	tick_pool_t *p = arg;
	unsigned long seen = 0;
	for (;;) {
		for (int64_t t0 = tick_mono_ns(); atomic_load(&p->gen) == seen && tick_mono_ns() - t0 < TICK_POOL_SPIN_NS;) tick_pause();
		pthread_mutex_lock(&p->mu);
		while (atomic_load(&p->gen) == seen) pthread_cond_wait(&p->wake, &p->mu);
		seen = atomic_load(&p->gen);
		if (atomic_load(&p->next) >= p->chunks) { // woke late: every chunk is taken
			pthread_mutex_unlock(&p->mu);
			continue;
		}
		p->active++;
		pthread_mutex_unlock(&p->mu);
		tick_pool_work(p);
		pthread_mutex_lock(&p->mu);
		if (--p->active == 0) pthread_cond_broadcast(&p->fin);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

// tick_split runs fn over [0, n) in chunks of size items, on the caller and
// up to helpers pool threads, and returns 1 when all are done; 0, having run
// nothing, when another launch is in the pool (the caller splits it some
// other way).
static int tick_split(void *fn, void **bufs, int64_t n, int64_t size, int helpers) {
	tick_pool_t *p = &tick_pool;
	int idle = 0;
	if (!atomic_compare_exchange_strong(&p->busy, &idle, 1)) return 0;
	pthread_mutex_lock(&p->mu);
	while (p->helpers < helpers) {
		pthread_t t;
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		int err = pthread_create(&t, &a, tick_pool_helper, p);
		pthread_attr_destroy(&a);
		if (err != 0) break; // fewer helpers: the caller runs what they do not
		p->helpers++;
	}
	p->fn = (tick_kernel_fn)fn;
	p->bufs = bufs;
	p->n = n;
	p->size = size;
	p->chunks = (int)((n + size - 1) / size);
	atomic_store(&p->done, 0);
	atomic_store(&p->next, 0);
	atomic_fetch_add(&p->gen, 1);
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->mu);
	tick_pool_work(p);
	for (int64_t t0 = tick_mono_ns(); atomic_load(&p->done) < p->chunks && tick_mono_ns() - t0 < TICK_POOL_SPIN_NS;) tick_pause();
	pthread_mutex_lock(&p->mu);
	while (atomic_load(&p->done) < p->chunks || p->active > 0) pthread_cond_wait(&p->fin, &p->mu);
	pthread_mutex_unlock(&p->mu);
	atomic_store(&p->busy, 0);
	return 1;
}

static void *tick_dlopen(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }

static void *tick_dlsym(void *h, const char *name) {
	dlerror();
	return dlsym(h, name);
}

static const char *tick_dlerror(void) { return dlerror(); }

// TICK_HUGE_MIN and TICK_HUGE_PAGE: buffers of 4 MiB and more start on a
// 2 MiB boundary and are advised to the kernel for transparent huge pages
// (as numpy does for arrays of 4 MiB and more). Where THP is in "madvise"
// mode (Debian's default) nothing else gets them, and with 4 KiB pages a
// stream over 64 MB reads about a fifth slower: the hardware prefetchers
// stop at every 4 KiB page (docs/benchmarks.md, "Huge pages for large
// buffers"). The advice is only advice: without THP it fails and changes
// nothing.
#define TICK_HUGE_MIN ((size_t)4 << 20)
#define TICK_HUGE_PAGE ((size_t)2 << 20)

static void *tick_alloc(size_t n) {
	void *p = NULL;
	if (n == 0) n = 1;
	if (n >= TICK_HUGE_MIN) {
		if (posix_memalign(&p, TICK_HUGE_PAGE, n) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
		madvise(p, n & ~(TICK_HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
		return p;
	}
	if (posix_memalign(&p, 64, n) != 0) return NULL;
	return p;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

func cgoAvailable() error { return nil }

// dlMu serialises dlopen/dlsym with the dlerror call that reports their
// failure (dlerror state is per thread, and a goroutine may change thread
// between two cgo calls; the lock plus one C helper per step keeps the
// message with its call).
var dlMu sync.Mutex

func dlOpen(path string) (unsafe.Pointer, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	dlMu.Lock()
	defer dlMu.Unlock()
	h := C.tick_dlopen(cpath)
	if h == nil {
		return nil, fmt.Errorf("native: dlopen %s: %s", path, dlError())
	}
	return h, nil
}

func dlSym(h unsafe.Pointer, name string) (unsafe.Pointer, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	dlMu.Lock()
	defer dlMu.Unlock()
	p := C.tick_dlsym(h, cname)
	if p == nil {
		return nil, errors.New(dlError())
	}
	return p, nil
}

func dlError() string {
	if msg := C.tick_dlerror(); msg != nil {
		return C.GoString(msg)
	}
	return "unknown dynamic loader error"
}

func callKernel(fn unsafe.Pointer, bufs *unsafe.Pointer, start, end int64) {
	C.tick_call(fn, (*unsafe.Pointer)(unsafe.Pointer(bufs)), C.int64_t(start), C.int64_t(end))
}

// Alloc returns n bytes of C memory aligned to 64 bytes, for buffers that
// kernels read and write; release it with Free. The memory is not zeroed.
// From 4 MiB up it is aligned to 2 MiB and advised for transparent huge
// pages (HugeMin).
func Alloc(n int) (unsafe.Pointer, error) {
	if err := cgoAvailable(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("native: Alloc of %d bytes", n)
	}
	p := C.tick_alloc(C.size_t(n))
	if p == nil {
		return nil, fmt.Errorf("native: out of memory allocating %d bytes", n)
	}
	return p, nil
}

// Free releases memory from Alloc. Free(nil) does nothing.
func Free(p unsafe.Pointer) { C.free(p) }

func callSplit(fn unsafe.Pointer, bufs *unsafe.Pointer, n, size int64, helpers int) bool {
	return C.tick_split(fn, (*unsafe.Pointer)(unsafe.Pointer(bufs)), C.int64_t(n), C.int64_t(size), C.int(helpers)) != 0
}

func runPlan(fns, args, starts, ends unsafe.Pointer, n int) {
	C.tick_run_plan((*unsafe.Pointer)(fns), (**unsafe.Pointer)(args), (*C.int64_t)(starts), (*C.int64_t)(ends), C.int64_t(n))
}

func runFlat(fns, flat, offs, se unsafe.Pointer, n int) {
	C.tick_run_flat((*unsafe.Pointer)(fns), (*unsafe.Pointer)(flat), (*C.int64_t)(offs), (*C.int64_t)(se), C.int64_t(n))
}

func runFlatTimed(fns, flat, offs, se unsafe.Pointer, n int, ts unsafe.Pointer) {
	C.tick_run_flat_timed((*unsafe.Pointer)(fns), (*unsafe.Pointer)(flat), (*C.int64_t)(offs), (*C.int64_t)(se), C.int64_t(n), (*C.int64_t)(ts))
}
