package tensor

import (
	"reflect"
	"testing"
)

// Rand(3, 4) is a 3×4 tensor, as tinygrad, numpy and torch users write it;
// ManualSeed makes the generator repeat; RandSeed neither reads nor moves it.
func TestRandomTensors(t *testing.T) {
	if got := Rand(3, 4).Shape(); !reflect.DeepEqual(got, []int{3, 4}) {
		t.Errorf("Rand(3, 4).Shape() = %v, want [3 4]", got)
	}
	if got := Randn(2, 3, 5).Shape(); !reflect.DeepEqual(got, []int{2, 3, 5}) {
		t.Errorf("Randn(2, 3, 5).Shape() = %v", got)
	}
	ManualSeed(42)
	a := Rand(64).Float32s()
	b := Rand(64).Float32s()
	ManualSeed(42)
	seed := RandSeed(7, 64).Float32s() // must not move the generator
	a2 := Rand(64).Float32s()
	if !reflect.DeepEqual(a, a2) {
		t.Error("ManualSeed(42) then Rand: different values the second time")
	}
	if reflect.DeepEqual(a, b) {
		t.Error("two Rand calls in a row gave the same values")
	}
	if !reflect.DeepEqual(seed, RandSeed(7, 64).Float32s()) {
		t.Error("RandSeed(7, 64) differs between calls")
	}
	for _, v := range a {
		if v < 0 || v >= 1 {
			t.Fatalf("Rand value %v outside [0, 1)", v)
		}
	}
	defer func() {
		e, ok := recover().(*OpError)
		if !ok || e.Op != "Rand" {
			t.Errorf("Rand(-1) panicked with %v, want an *OpError of Rand", e)
		}
	}()
	Rand(-1)
}
