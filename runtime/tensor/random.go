package tensor

import (
	"math/rand"
	"sync"
)

// Random tensors. Rand(3, 4) is a 3×4 tensor, as tinygrad's Tensor.rand,
// numpy's random.rand and torch.rand read: the values come from the
// package's generator, which starts from seed 0 in every process (a
// notebook run top to bottom gets the same values every time) and which
// ManualSeed restarts. RandSeed and RandnSeed take their own seed and
// leave the package's generator alone.

// generator is the package's random source. It is global state on
// purpose: it is what Rand's shape-only signature (the one tinygrad,
// numpy and torch users write) needs, and ManualSeed makes it
// reproducible.
var generator = struct {
	sync.Mutex
	r *rand.Rand
}{r: rand.New(rand.NewSource(0))}

// ManualSeed restarts the generator Rand and Randn draw from, as
// tinygrad's Tensor.manual_seed and torch.manual_seed do.
func ManualSeed(seed int64) {
	generator.Lock()
	generator.r = rand.New(rand.NewSource(seed))
	generator.Unlock()
}

// Rand is a float32 tensor of the given shape, uniform in [0, 1), from the
// package's generator (ManualSeed).
func Rand(shape ...int) *Tensor {
	generator.Lock()
	defer generator.Unlock()
	return uniform(generator.r, "Rand", shape)
}

// Randn is a float32 tensor of the given shape of standard normal samples
// from the package's generator (ManualSeed).
func Randn(shape ...int) *Tensor {
	generator.Lock()
	defer generator.Unlock()
	return normal(generator.r, "Randn", shape)
}

// RandSeed is Rand from its own seed: the same seed and shape give the
// same tensor, whatever else drew random numbers.
func RandSeed(seed int64, shape ...int) *Tensor {
	return uniform(rand.New(rand.NewSource(seed)), "RandSeed", shape)
}

// RandnSeed is Randn from its own seed.
func RandnSeed(seed int64, shape ...int) *Tensor {
	return normal(rand.New(rand.NewSource(seed)), "RandnSeed", shape)
}

func uniform(r *rand.Rand, op string, shape []int) *Tensor {
	shape = checkShape(op, shape)
	v := make([]float32, prod(shape))
	for i := range v {
		v[i] = r.Float32()
	}
	return FromFloat32s(v, shape...)
}

func normal(r *rand.Rand, op string, shape []int) *Tensor {
	shape = checkShape(op, shape)
	v := make([]float32, prod(shape))
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return FromFloat32s(v, shape...)
}
