package rt

import "testing"

// BenchmarkChannelHelpers measures the interruptible helpers alone, called
// from Go: a send and a receive on a buffered channel that never has to
// wait, of int (the type-switch fast path) and of a struct (reflect's
// TrySend and TryRecv).
func BenchmarkChannelHelpers(b *testing.B) {
	r := New(0, Hooks{})
	type pt struct{ X, Y int }
	b.Run("int", func(b *testing.B) {
		ch := make(chan int, 1)
		var v int
		for b.Loop() {
			r.sendOp(ch, 1)
			r.recvInto(ch, &v)
		}
	})
	b.Run("struct", func(b *testing.B) {
		ch := make(chan pt, 1)
		var v pt
		for b.Loop() {
			r.sendOp(ch, pt{1, 2})
			r.recvInto(ch, &v)
		}
	})
}
