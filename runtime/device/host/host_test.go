package host

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-kernel/tick/runtime/device"
)

// countProg counts the runs over each item (no atomics: the race detector
// sees two chunks that overlap), records chunk starts that are not a
// multiple of row, and panics in the chunk with item panicAt.
type countProg struct {
	hits     []int32
	row      int
	misalign chan int
	panicAt  int // an item whose chunk panics, -1 for none
}

func (countProg) Dims() device.Dims { return device.Dims{} }
func (countProg) Source() string    { return "count" }
func (countProg) Work() int         { return 1 }
func (p countProg) Run(_ []device.Memory, start, end int) {
	if p.row > 1 && start%p.row != 0 {
		select {
		case p.misalign <- start:
		default:
		}
	}
	for i := start; i < end; i++ {
		p.hits[i]++
	}
	if start <= p.panicAt && p.panicAt < end {
		panic(fmt.Sprintf("chunk at %d", start))
	}
}

// withProcs runs f with GOMAXPROCS at n, so launches split across n threads
// whatever the machine.
func withProcs(t *testing.T, n int, f func()) {
	t.Helper()
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	f()
}

// Every item is run exactly once, and Split has returned only when all its
// chunks are done, with many splits of several sizes at once.
func TestSplitCoversEachItemOnce(t *testing.T) {
	withProcs(t, 4, func() {
		cases := []struct{ n, perItem, row int }{
			{SplitMin, 1, 1}, {SplitMin + 7, 1, 1}, {3, SplitMin, 1}, {2, SplitMin, 1},
			{1000 * 131, 256, 131}, {SplitMin, 1, SplitMin / 2}, {SplitMin, 1, SplitMin},
			{5 * 26215, 1, 26215}, {3 * 43691, 1, 43691}, // 5 rows: whole rows; 3 rows for 4 threads: split inside
			{SplitMin - 1, 1, 1}, // below SplitMin: one run
		}
		var wg sync.WaitGroup
		errs := make(chan string, 100)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 20 {
					c := cases[(g+r)%len(cases)]
					p := countProg{hits: make([]int32, c.n), misalign: make(chan int, 1), panicAt: -1}
					if c.n/c.row >= runtime.GOMAXPROCS(0) { // a row for each thread: chunks keep whole rows
						p.row = c.row
					}
					Split(p, nil, c.n, c.perItem, c.row)
					for i, h := range p.hits {
						if h != 1 {
							errs <- fmt.Sprintf("n=%d row=%d: item %d run %d times", c.n, c.row, i, h)
							return
						}
					}
					select {
					case s := <-p.misalign:
						errs <- fmt.Sprintf("n=%d row=%d: a chunk starts at %d, inside a row", c.n, c.row, s)
						return
					default:
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}

// A panic in any chunk (on the caller or on a helper) reaches the caller of
// Split, after the other chunks have run.
func TestSplitPanicReachesCaller(t *testing.T) {
	withProcs(t, 2, func() {
		n := 4 * SplitMin
		for _, at := range []int{0, n / 2, n - 1} {
			for range 50 {
				p := countProg{hits: make([]int32, n), panicAt: at}
				func() {
					defer func() {
						r := recover()
						if s, _ := r.(string); len(s) < 9 || s[:9] != "chunk at " {
							t.Fatalf("panic at item %d: recovered %v", at, r)
						}
					}()
					Split(p, nil, n, 1, 1)
					t.Fatalf("panic at item %d: Split returned", at)
				}()
				for i, h := range p.hits {
					if h != 1 {
						t.Fatalf("panic at item %d: item %d run %d times when Split panicked", at, i, h)
					}
				}
			}
		}
	})
}

// The helpers are one per extra thread however many launches run, and they
// park (no CPU) once the launches stop.
func TestSplitHelpersBoundedAndPark(t *testing.T) {
	withProcs(t, 3, func() {
		p := copyProg{make([]byte, 4*SplitMin), make([]byte, 4*SplitMin)}
		for range 200 {
			Split(p, nil, SplitMin, 1, 1)
		}
		before := runtime.NumGoroutine()
		for range 200 {
			Split(p, nil, SplitMin, 1, 1)
		}
		if after := runtime.NumGoroutine(); after > before {
			t.Errorf("goroutines: %d after 200 more splits, %d before", after, before)
		}
		if s := pool.started.Load(); s < 2 || s > 3 { // 2 here; 3 if an earlier test ran at GOMAXPROCS 4
			t.Errorf("%d helpers started for GOMAXPROCS 3", s)
		}
		deadline := time.Now().Add(5 * time.Second)
		for pool.parked.Load() != pool.started.Load() {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d helpers parked 5 s after the last launch", pool.parked.Load(), pool.started.Load())
			}
			time.Sleep(time.Millisecond)
		}
	})
}

// runCounter counts a program's Run calls (the chunks of a launch).
type runCounter struct {
	runs *atomic.Int32
}

func (runCounter) Dims() device.Dims { return device.Dims{} }
func (runCounter) Source() string    { return "runs" }
func (runCounter) Work() int         { return 1 }
func (p runCounter) Run(_ []device.Memory, start, end int) {
	p.runs.Add(1)
}

// A launch below ChunkedMax is split into ChunksPerWorker chunks per
// thread (a late helper leaves its chunks to the caller); one of
// ChunkedMax or more, or whose chunks are whole rows of items that fold
// several elements each (a GEMM's), into one per thread (a packed GEMM
// packs B once per chunk).
func TestSplitChunksPerLaunchSize(t *testing.T) {
	withProcs(t, 2, func() {
		for _, c := range []struct{ n, perItem, row, want int }{
			{SplitMin, 1, 1, 2 * ChunksPerWorker},
			{ChunkedMax - 1, 1, 1, 2 * ChunksPerWorker},
			{ChunkedMax, 1, 1, 2},
			{ChunkedMax / 64, 64, 1, 2},
			{SplitMin, 1, 256, 2 * ChunksPerWorker},              // an elementwise op on 512 rows
			{SplitMin / 8, 8, 128, 2},                            // a 128×128 GEMM (K 128)
			{SplitMin / 4, 4, SplitMin / 4, 2 * ChunksPerWorker}, // 32K row sums: inside the one row
		} {
			var runs atomic.Int32
			Split(runCounter{&runs}, nil, c.n, c.perItem, c.row)
			if got := int(runs.Load()); got != c.want {
				t.Errorf("n=%d work per item %d row %d: %d chunks on 2 threads, want %d", c.n, c.perItem, c.row, got, c.want)
			}
		}
	})
}

// splitProg is a ThreadSplitter that records what Split asked of it; with
// refuse it declines (another launch holds its threads), so Split must run
// the launch on its goroutines.
type splitProg struct {
	countProg
	refuse bool
	asked  *[]string
}

func (p splitProg) RunSplit(_ []device.Memory, n, size, threads int) bool {
	*p.asked = append(*p.asked, fmt.Sprintf("n=%d size=%d threads=%d", n, size, threads))
	if p.refuse {
		return false
	}
	for s := 0; s < n; s += size {
		p.Run(nil, s, min(s+size, n))
	}
	return true
}

// A long launch of a ThreadSplitter runs through RunSplit with the chunks
// Split chose (whole rows, one per thread); a short one, or one RunSplit
// refuses, runs on the goroutines; every item exactly once either way.
func TestSplitUsesProgramThreads(t *testing.T) {
	withProcs(t, 2, func() {
		for _, c := range []struct {
			name      string
			n, row    int
			refuse    bool
			wantAsked []string
		}{
			{"long", 4 * ChunkedMax, 1024, false, []string{fmt.Sprintf("n=%d size=%d threads=2", 4*ChunkedMax, 2*ChunkedMax)}},
			{"long, refused", 4 * ChunkedMax, 1024, true, []string{fmt.Sprintf("n=%d size=%d threads=2", 4*ChunkedMax, 2*ChunkedMax)}},
			{"short", 2 * SplitMin, 1, false, nil},
		} {
			var asked []string
			p := splitProg{countProg: countProg{hits: make([]int32, c.n), panicAt: -1}, refuse: c.refuse, asked: &asked}
			Split(p, nil, c.n, 1, c.row)
			if fmt.Sprint(asked) != fmt.Sprint(c.wantAsked) {
				t.Errorf("%s: RunSplit asked %v, want %v", c.name, asked, c.wantAsked)
			}
			for i, h := range p.hits {
				if h != 1 {
					t.Fatalf("%s: item %d run %d times", c.name, i, h)
				}
			}
		}
	})
}
