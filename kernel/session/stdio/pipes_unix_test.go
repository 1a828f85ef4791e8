//go:build unix

package stdio

import "testing"

// BenchmarkDrainEmpty is what each print pays when nothing was written to
// os.Stdout or os.Stderr: one poll of both pipes, once a cell has named
// them; nothing before.
func BenchmarkDrainEmpty(b *testing.B) {
	r := New(Options{})
	r.Symbols() // makes the pipes
	r.used.Store(true)
	for b.Loop() {
		r.Drain()
	}
}
