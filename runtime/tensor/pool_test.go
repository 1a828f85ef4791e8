package tensor

import (
	"runtime"
	"testing"
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
			b := mustBuffer(d, Float32, 1000)
			mem := b.mem
			b = nil
			var got *Buffer
			for range 20 {
				runtime.GC()
				runtime.Gosched()
				got = mustBuffer(d, Int32, 990) // same class: 3960 bytes rounds to 4096
				if got.mem == mem {
					break
				}
			}
			if got.mem != mem {
				t.Fatalf("the freed buffer's memory was not reused")
			}
			if n := len(got.mem.Bytes()); n != 990*4 {
				t.Errorf("reused memory has %d bytes, want %d", n, 990*4)
			}
			runtime.KeepAlive(got)
		})
	}
}
