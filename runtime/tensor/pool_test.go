package tensor

import (
	"errors"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
)

// TestSizeClasses: every size maps to a class at least as large, wasting
// at most an eighth, and classBytes inverts sizeClass.
func TestSizeClasses(t *testing.T) {
	prev := -1
	for _, size := range []int{0, 1, 63, 64, 65, 100, 127, 128, 129, 1000, 1024, 1025, 4096, 1 << 20, 3<<20 + 7, 64 << 20, 1 << 32} {
		c, cb := sizeClass(size)
		if cb < size || (size > 64 && cb-size > size/8) {
			t.Errorf("size %d: class %d of %d bytes", size, c, cb)
		}
		if _, back := classBytes(c); back != cb {
			t.Errorf("size %d: class %d is %d bytes, classBytes says %d", size, c, cb, back)
		}
		if c < prev || c >= numClasses {
			t.Errorf("size %d: class %d (previous %d, %d classes)", size, c, prev, numClasses)
		}
		prev = c
	}
	if c, _ := sizeClass(1<<32 + 1); c != -1 {
		t.Errorf("a buffer over poolMaxBytes has class %d, want -1 (not pooled)", c)
	}
}

// TestBufferPoolReusesMemory: the memory of an unreachable buffer comes
// back to its device's pool and the next buffer of the size class gets it,
// resized, on every device that pools.
func TestBufferPoolReusesMemory(t *testing.T) {
	for _, dev := range AvailableBackends() {
		t.Run(dev, func(t *testing.T) {
			d := Device(dev)
			if !d.poolable() {
				t.Skip("not pooled")
			}
			b := mustBuffer(d, Float32, 100_000)
			mem := b.mem
			b = nil
			// Every buffer the loop takes stays reachable, so the only
			// memory that can come back to the pool is b's: the cleanup
			// runs on its own goroutine, late under the race detector, and
			// a dropped attempt freed before it would be handed out first.
			var got *Buffer
			var kept []*Buffer
			for range 50 {
				runtime.GC()
				time.Sleep(time.Millisecond)
				got = mustBuffer(d, Int32, 99_000) // the same class: 400,000 and 396,000 bytes round to 425,984
				if got.mem == mem {
					break
				}
				kept = append(kept, got)
			}
			if got.mem != mem {
				t.Fatalf("the freed buffer's memory was not reused (%d attempts)", len(kept)+1)
			}
			runtime.KeepAlive(kept)
			if n := got.mem.Size(); n != 99_000*4 {
				t.Errorf("reused memory has %d bytes, want %d", n, 99_000*4)
			}
			runtime.KeepAlive(got)
		})
	}
}

// TestSmallBuffersComeBackBySlab: small buffers share a slab whose cleanup
// returns all of their memory once every one of them is unreachable.
func TestSmallBuffersComeBackBySlab(t *testing.T) {
	for _, dev := range []string{"GO", "CPU"} {
		if !slices.Contains(AvailableBackends(), dev) {
			continue
		}
		t.Run(dev, func(t *testing.T) {
			d := Device(dev)
			runtime.GC()
			before := counters.buffers.Load()
			mems := map[device.Memory]bool{}
			for range 3 * slabN {
				mems[mustBuffer(d, Float32, 256).mem] = true
			}
			var after int64
			for range 20 {
				runtime.GC()
				runtime.Gosched()
				if after = counters.buffers.Load(); after <= before+slabN {
					break
				}
			}
			if after > before+slabN { // the current slab may still be held
				t.Fatalf("%d live buffers after dropping %d small ones (before: %d): slabs were not released", after, 3*slabN, before)
			}
			// Their memory is in the pool (not only counted back). The pool
			// may hold memory of the class from other tests' slabs too, put
			// back after ours: which one the next buffer gets is not ours to
			// say, only that it comes from the pool.
			class, _ := sizeClass(256 * 4)
			var back int
			pooled := map[device.Memory]bool{}
			for range 20 {
				d.pool.mu.Lock()
				back = 0
				for _, m := range d.pool.free[class] {
					pooled[m] = true
					if mems[m] {
						back++
					}
				}
				d.pool.mu.Unlock()
				if back >= 2*slabN {
					break
				}
				runtime.GC()
				runtime.Gosched()
			}
			if back < 2*slabN {
				t.Fatalf("%d of the %d released small buffers' memory is in the pool, want at least %d", back, 3*slabN, 2*slabN)
			}
			if got := mustBuffer(d, Float32, 250); !pooled[got.mem] {
				t.Errorf("a new small buffer did not reuse pooled memory")
			}
		})
	}
}

// TestMemoryLimitRefusesExternalBuffers: with a memory limit set, a C
// buffer that would bring tensor memory past it is refused with a
// *MemoryLimitError that says what to do, after the pool's idle memory and
// unreachable buffers were given back; within the limit it is allocated.
func TestMemoryLimitRefusesExternalBuffers(t *testing.T) {
	if !slices.Contains(AvailableBackends(), "CPU") {
		t.Skip("no CPU backend (cgo and a C compiler)")
	}
	d := Device("CPU")
	base := int64(-1) // unreachable buffers of earlier tests collected, the pool emptied
	for i := 0; i < 50 && externalMem.inUse.Load() != base; i++ {
		base = externalMem.inUse.Load()
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	drainPools()
	base = externalMem.inUse.Load()
	prev := debug.SetMemoryLimit(base + 48<<20)
	defer debug.SetMemoryLimit(prev)

	_, err := newBuffer(d, Float32, 16<<20) // 64 MiB
	var me *MemoryLimitError
	if !errors.As(err, &me) {
		t.Fatalf("allocating 64 MiB under a limit %d MiB above what is in use: %v, want a *MemoryLimitError", 48, err)
	}
	for _, want := range []string{"64.0 MiB more on CPU", "memory limit", "TICK_MEMORY_LIMIT"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	for range 3 { // 32 MiB fits, again and again once dropped
		b, err := newBuffer(d, Float32, 8<<20)
		if err != nil {
			t.Fatalf("32 MiB within the limit: %v", err)
		}
		runtime.KeepAlive(b)
	}
}

// BenchmarkSlabRelease: a slab's 16 buffers back into the pool one put
// each (as before the slab put) and in one put, alternately in one loop
// (docs/benchmarks.md); each round takes them out again with get.
func BenchmarkSlabRelease(b *testing.B) {
	d := Device("GO")
	var p bufPool
	class, cbytes := sizeClass(1024)
	pms := make([]pooledMem, slabN)
	for i := range pms {
		m, err := d.dev.Alloc(Float32, 256)
		if err != nil {
			b.Fatal(err)
		}
		pms[i] = pooledMem{pool: &p, mem: m, bytes: cbytes, class: class}
	}
	takeBack := func() {
		for i := range pms {
			if pms[i].mem = p.get(class, Float32, 256, false); pms[i].mem == nil {
				b.Fatal("pool lost a buffer")
			}
		}
	}
	var each, once time.Duration
	for range b.N {
		t0 := time.Now()
		for _, pm := range pms {
			p.put(pm)
		}
		each += time.Since(t0)
		takeBack()
		t0 = time.Now()
		p.put(pms...)
		once += time.Since(t0)
		takeBack()
	}
	b.ReportMetric(float64(each.Nanoseconds())/float64(b.N*slabN), "ns/buffer-each")
	b.ReportMetric(float64(once.Nanoseconds())/float64(b.N*slabN), "ns/buffer-slab")
}
