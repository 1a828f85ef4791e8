package tensor

import (
	"fmt"
	"runtime"
	"time"
)

// Buffer is device memory holding n elements of one dtype. Realized tensors
// view a Buffer; kernels read and write Buffers.
type Buffer struct {
	dev   *Dev
	dtype DType
	n     int
	mem   Memory
	shape []int // the shape of the tensor it was made for (provenance)
}

// newBuffer allocates n elements on d, accounting allocation time and memory
// in use; the memory is freed when the Buffer becomes unreachable.
func newBuffer(d *Dev, dt DType, n int) (*Buffer, error) {
	t0 := time.Now()
	mem, err := d.backend.Alloc(dt, n)
	addPhase(&counters.allocNS, t0)
	if err != nil {
		return nil, fmt.Errorf("tensor: allocating %d × %s on %s: %w", n, dt, d.name, err)
	}
	b := &Buffer{dev: d, dtype: dt, n: n, mem: mem}
	size := int64(n * dt.Size())
	counters.memInUse.Add(size)
	counters.buffers.Add(1)
	runtime.AddCleanup(b, func(m Memory) {
		m.Free()
		counters.memInUse.Add(-size)
		counters.buffers.Add(-1)
	}, mem)
	return b, nil
}

func mustBuffer(d *Dev, dt DType, n int) *Buffer {
	b, err := newBuffer(d, dt, n)
	if err != nil {
		panic(err)
	}
	return b
}
