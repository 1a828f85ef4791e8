package host

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
)

// copyProg copies float32 items of src to dst: a memory-bound kernel like
// an elementwise op's, with no cgo.
type copyProg struct{ dst, src []byte }

func (copyProg) Dims() device.Dims { return device.Dims{} }
func (copyProg) Source() string    { return "copy" }
func (copyProg) Work() int         { return 1 }
func (p copyProg) Run(_ []device.Memory, start, end int) {
	copy(p.dst[4*start:4*end], p.src[4*start:4*end])
}

// spawnSplit is Split as it was before the helper pool: a goroutine per
// chunk past the first, started per launch. The benchmark's reference.
func spawnSplit(p Program, bufs []device.Memory, n, perItem, row int) {
	if n*max(perItem, 1) < SplitMin || n < 2 {
		p.Run(bufs, 0, n)
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if workers <= 1 {
		p.Run(bufs, 0, n)
		return
	}
	workers = min(workers, n)
	chunk := (n + workers - 1) / workers
	if row > 1 && row < chunk {
		chunk = (chunk + row - 1) / row * row
	}
	var wg sync.WaitGroup
	for s := chunk; s < n; s += chunk {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			p.Run(bufs, s, min(s+chunk, n))
		}(s)
	}
	p.Run(bufs, 0, min(chunk, n))
	wg.Wait()
}

// BenchmarkSplit times a float32 copy through Split (pool) and through
// the goroutine-per-chunk split it replaced (spawn), back to back and
// with a gap of caller work between launches (a replay's Go side).
// Compare -cpu 1,2; -count interleaves the two.
func BenchmarkSplit(b *testing.B) {
	splits := []struct {
		name  string
		split func(Program, []device.Memory, int, int, int)
	}{{"spawn", spawnSplit}, {"pool", Split}}
	for _, n := range []int{4 << 10, 256 << 10, 16 << 20} {
		p := copyProg{make([]byte, 4*n), make([]byte, 4*n)}
		for _, gap := range []time.Duration{0, 10 * time.Microsecond} {
			for _, s := range splits {
				b.Run(fmt.Sprintf("%dK/gap=%v/%s", n>>10, gap, s.name), func(b *testing.B) {
					for b.Loop() {
						s.split(p, nil, n, 1, 1)
						if gap > 0 {
							for t := time.Now(); time.Since(t) < gap; {
							}
						}
					}
				})
			}
		}
	}
}
