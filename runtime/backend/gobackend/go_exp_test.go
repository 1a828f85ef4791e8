package gobackend

import (
	"math"
	"os"
	"testing"
)

// exp32s gives float32(math.Exp(float64(x))) bit for bit (what the GO
// device computed before it, and the correctly rounded e^x but for inputs
// a few 1e-16 from a float32 midpoint) on every 997th float32 bit pattern
// (4.3 million inputs of every sign and exponent: NaNs, infinities,
// subnormals, the overflow and underflow edges), through the assembly
// lanes where the CPU has them and math.Exp for the last len%4.
func TestExp32MatchesMathExp(t *testing.T) {
	const step = 997
	x := make([]float32, 0, 1<<32/step+16)
	for b := uint64(0); b < 1<<32; b += step {
		x = append(x, math.Float32frombits(uint32(b)))
	}
	// The edges: the largest finite result, the first +Inf, the least
	// subnormal result and the first 0, and both sides of each.
	for _, v := range []float32{88.72283, 88.72284, -103.27893, -103.97208, -103.972084, -87.33655, 0, float32(math.Copysign(0, -1)),
		float32(math.Inf(1)), float32(math.Inf(-1)), 1e-8, -1e-8} {
		x = append(x, v, math.Nextafter32(v, 200), math.Nextafter32(v, -200))
	}
	got := make([]float32, len(x))
	exp32s(got, x)
	bad := 0
	for i, v := range x {
		want := float32(math.Exp(float64(v)))
		if math.Float32bits(got[i]) != math.Float32bits(want) && !(want != want && got[i] != got[i]) {
			if bad++; bad <= 5 {
				t.Errorf("exp(%v [%#08x]) = %v [%#08x], math.Exp gives %v [%#08x]", v, math.Float32bits(v), got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d inputs differ", bad, len(x))
	}
}

// BenchmarkExp32 is the float32 exp of a block of 4,096 values in [-10, 10]
// (ns per element): exp32s against float32(math.Exp(float64(x))).
func BenchmarkExp32(b *testing.B) {
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i%2000)/100 - 10
	}
	o := make([]float32, len(x))
	b.Run("exp32s", func(b *testing.B) {
		for b.Loop() {
			exp32s(o, x)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/elem")
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				o[i] = float32(math.Exp(float64(v)))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/elem")
	})
}

// With TICK_EXP_EXHAUSTIVE=1, every one of the 2^32 float32 inputs (some
// three minutes): exp32s equals float32(math.Exp(float64(x))) bit for bit.
//
//	TICK_EXP_EXHAUSTIVE=1 go test -run Exp32Exhaustive -timeout 30m ./runtime/backend/gobackend/
func TestExp32Exhaustive(t *testing.T) {
	if os.Getenv("TICK_EXP_EXHAUSTIVE") != "1" {
		t.Skip("set TICK_EXP_EXHAUSTIVE=1 to try all 2^32 inputs")
	}
	const blk = 1 << 16
	x, o := make([]float32, blk), make([]float32, blk)
	bad := 0
	for b := uint64(0); b < 1<<32; b += blk {
		for i := range x {
			x[i] = math.Float32frombits(uint32(b) + uint32(i))
		}
		exp32s(o, x)
		for i, v := range x {
			w := float32(math.Exp(float64(v)))
			if math.Float32bits(o[i]) != math.Float32bits(w) && !(w != w && o[i] != o[i]) {
				if bad++; bad <= 5 {
					t.Errorf("exp(%v [%#08x]) = %#08x, math.Exp gives %#08x", v, math.Float32bits(v), math.Float32bits(o[i]), math.Float32bits(w))
				}
			}
		}
	}
	t.Logf("assembly lanes: %v; %d of 2^32 inputs differ", haveExp, bad)
	if bad > 0 {
		t.Errorf("%d of 2^32 inputs differ", bad)
	}
}
