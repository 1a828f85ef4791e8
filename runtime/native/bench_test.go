package native

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCall is the cost of one kernel launch through cgo on one element.
func BenchmarkCall(b *testing.B) {
	k := affineKernel(b)
	bufs := allocBufs(b, 2, 1)
	for b.Loop() {
		k.Call(bufs, 0, 1)
	}
}

// BenchmarkPlanStep is the per-kernel cost of a 10-step replay plan run in
// one cgo crossing (ns/op is per step).
func BenchmarkPlanStep(b *testing.B) {
	k := affineKernel(b)
	bufs := allocBufs(b, 2, 1)
	var p Plan
	defer p.Free()
	for range 10 {
		p.Add(k, bufs, 0, 1)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i += 10 {
		p.Run()
	}
}

// BenchmarkCompile compares a cold compile, a memory-cache hit and a disk-cache
// hit (fresh Compiler, object copied to a new path so the loader really loads).
func BenchmarkCompile(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		c := newCompiler(b, b.TempDir())
		for i := 0; b.Loop(); i++ {
			if _, err := c.Compile(fmt.Sprintf("%s// %d\n", affineSrc, i), "affine"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("memory", func(b *testing.B) {
		c := newCompiler(b, b.TempDir())
		if _, err := c.Compile(affineSrc, "affine"); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := c.Compile(affineSrc, "affine"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("disk", func(b *testing.B) {
		seed := newCompiler(b, b.TempDir())
		if _, err := seed.Compile(affineSrc, "affine"); err != nil {
			b.Fatal(err)
		}
		obj, err := os.ReadFile(filepath.Join(seed.CacheDir(), seed.Key(affineSrc)+".so"))
		if err != nil {
			b.Fatal(err)
		}
		root := b.TempDir()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			dir := filepath.Join(root, fmt.Sprint(i))
			c := newCompiler(b, dir)
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, c.Key(affineSrc)+".so"), obj, 0o644)
			b.StartTimer()
			lib, err := c.Compile(affineSrc, "affine")
			if err != nil || lib.Origin != FromDisk {
				b.Fatalf("origin %v, err %v", lib.Origin, err)
			}
		}
	})
}

// BenchmarkBatchStep is the per-kernel cost of a 10-call Batch rebuilt and
// run each time, as a JIT replay would (ns/op is per kernel).
func BenchmarkBatchStep(b *testing.B) {
	k := affineKernel(b)
	bufs := allocBufs(b, 2, 1)
	var batch Batch
	defer batch.Free()
	b.ResetTimer()
	for i := 0; i < b.N; i += 10 {
		batch.Reset()
		for range 10 {
			batch.Add(k, bufs, 0, 1)
		}
		batch.Run()
	}
}
