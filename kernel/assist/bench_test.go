package assist

import (
	"fmt"
	"testing"
)

// benchCells are 100 cells of the kind bench/assist_latency.py runs.
func benchCells() []string {
	cells := []string{"import \"strings\"\nimport \"time\""}
	for i := range 100 {
		cells = append(cells, fmt.Sprintf("// f%d multiplies by %d.\nfunc f%d(n int) int { return n * %d }\nv%d := f%d(2)\ntype T%d struct{ A, B int }\np%d := &T%d{1, 2}", i, i, i, i, i, i, i, i, i))
	}
	return cells
}

// BenchmarkComplete: completion requests on a session of 100 cells (the
// session's model built once, as between two cells).
func BenchmarkComplete(b *testing.B) {
	for _, code := range []string{"zzqLongName := 3\nzzqLong", "time.Now().Uni", "strconv.Ato", "p7.", "x := f9"} {
		b.Run(code, func(b *testing.B) {
			a := New(&fakeScope{cells: benchCells()}, Options{Packages: testPackages, CacheDir: "-"})
			a.Complete(code, len(code))
			for b.Loop() {
				a.Complete(code, len(code))
			}
		})
	}
}

// BenchmarkInspect: inspection requests on the same session.
func BenchmarkInspect(b *testing.B) {
	for _, code := range []string{"strings.ToUpper", "f42", "v42"} {
		b.Run(code, func(b *testing.B) {
			a := New(&fakeScope{cells: benchCells()}, Options{Packages: testPackages, CacheDir: "-"})
			a.Inspect(code, len(code), 0)
			for b.Loop() {
				a.Inspect(code, len(code), 0)
			}
		})
	}
}

// BenchmarkModel: rebuilding the model of 100 cells after one more ran
// (what the first request after a cell pays).
func BenchmarkModel(b *testing.B) {
	base := benchCells()
	s := &fakeScope{cells: base}
	a := New(s, Options{Packages: testPackages, CacheDir: "-"})
	m100 := a.current()
	for b.Loop() {
		s.cells = append(base[:len(base):len(base)], "w := 1")
		a.mu.Lock()
		a.model = m100
		a.mu.Unlock()
		a.current()
	}
}
