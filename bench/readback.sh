#!/bin/sh
# Read-back through a kernel (docs/benchmarks.md, "Read-back"): cells
# calling Float32s, Float64s, Int32s and ToSlice on 8 Mi-element tensors
# computed by a kernel on CPU, against a compiled Go copy of the same bytes
# (a %%go cell: make + copy), interleaved in random order round by round,
# in one `tick run` of a generated notebook. Two conditions:
#   warm   the heap's pages are in (a read and a collection just before):
#          what a loop of reads costs;
#   fresh  debug.FreeOSMemory() before each read (untimed): every page is
#          new to the process, as after the kernel handed memory back.
# Each read is timed by compiled code: wall time, the calling thread's
# CPU time and its page faults (getrusage RUSAGE_THREAD). Prints one
# Markdown table: medians with min–max, and the load before and after.
#
#   bench/readback.sh [ROUNDS]     (default 15; Linux; builds bin/tick)
set -eu
rounds=${1:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ -n "${NOBUILD:-}" ] || go build -ldflags "-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD 2>/dev/null)" -o bin/tick ./cmd/tick
/usr/bin/python3 - "$out/readback.ipynb" "$rounds" <<'PY'
import json, sys
rounds = sys.argv[2]
cells = [
'''import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"tick/runtime/tensor"
)

tensor.SetDefaultDevice("CPU")
const n = 8 << 20
f32 := tensor.Arange(n).Mul(2).Realize() // computed by a kernel
f64 := f32.Cast(tensor.Float64).Realize()
i32 := f32.Cast(tensor.Int32).Realize()
s32, s64, si32 := f32.Float32s(), f64.Float64s(), i32.Int32s()
fmt.Println(len(s32), len(s64), len(si32))''',
'''%%go
package main

import (
	"runtime"
	"syscall"
	"time"
)

// The compiled reads: a new slice and one copy of the same bytes.
func CopyF32(s []float32) []float32 { o := make([]float32, len(s)); copy(o, s); return o }
func CopyF64(s []float64) []float64 { o := make([]float64, len(s)); copy(o, s); return o }
func CopyI32(s []int32) []int32     { o := make([]int32, len(s)); copy(o, s); return o }

// Measure runs f once on a locked thread: its wall time, the thread's
// CPU time and page faults.
func Measure(f func()) (wall, cpu time.Duration, faults int64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r0, r1 syscall.Rusage
	_ = syscall.Getrusage(1, &r0) // RUSAGE_THREAD
	t0 := time.Now()
	f()
	wall = time.Since(t0)
	_ = syscall.Getrusage(1, &r1)
	cpu = time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
	return wall, cpu, r1.Minflt - r0.Minflt
}''',
'%timeit -q -n 1 -r 7 tensor.DefaultDevice()',  # a timing magic first waits for the code assistant's background work
'''type read struct {
	name string
	f    func()
}
pairs := [][2]read{
	{{"Float32s", func() { _ = f32.Float32s() }}, {"compiled copy []float32", func() { _ = CopyF32(s32) }}},
	{{"Float64s", func() { _ = f64.Float64s() }}, {"compiled copy []float64", func() { _ = CopyF64(s64) }}},
	{{"Int32s", func() { _ = i32.Int32s() }}, {"compiled copy []int32", func() { _ = CopyI32(si32) }}},
	{{"ToSlice", func() { _ = f32.ToSlice() }}, {"compiled copy []float32", func() { _ = CopyF32(s32) }}},
}
type figs struct{ wall, cpu, faults []float64 }
func med(v []float64) (m, lo, hi float64) {
	s := slices.Sorted(slices.Values(v))
	return s[len(s)/2], s[0], s[len(s)-1]
}
ms := func(v []float64) string { m, lo, hi := med(v); return fmt.Sprintf("%.1f ms (%.1f–%.1f)", m/1e6, lo/1e6, hi/1e6) }
fl := func(v []float64) string { m, lo, hi := med(v); return fmt.Sprintf("%.0f (%.0f–%.0f)", m, lo, hi) }
fmt.Println("| condition | read | wall | CPU (thread) | page faults | read / compiled, median wall (CPU) |")
fmt.Println("|---|---|---|---|---|---|")
for _, cond := range []string{"warm", "fresh"} {
	for _, p := range pairs {
		var got [2]figs
		for r := 0; r < ROUNDS; r++ {
			for _, k := range rand.Perm(2) {
				if cond == "fresh" {
					debug.FreeOSMemory()
				} else {
					p[k].f()     // the pages are in
					runtime.GC() // and no collection is under way
				}
				w, c, f := Measure(p[k].f)
				got[k].wall = append(got[k].wall, float64(w))
				got[k].cpu = append(got[k].cpu, float64(c))
				got[k].faults = append(got[k].faults, float64(f))
			}
		}
		mw0, _, _ := med(got[0].wall)
		mw1, _, _ := med(got[1].wall)
		mc0, _, _ := med(got[0].cpu)
		mc1, _, _ := med(got[1].cpu)
		for k := range 2 {
			ratio := ""
			if k == 0 {
				ratio = fmt.Sprintf("%.2f× (%.2f×)", mw0/mw1, mc0/mc1)
			}
			fmt.Printf("| %s | %s | %s | %s | %s | %s |\\n", cond, p[k].name, ms(got[k].wall), ms(got[k].cpu), fl(got[k].faults), ratio)
		}
	}
}'''.replace("ROUNDS", rounds),
'''var b0 []float64
for i := 0; i < 101; i++ {
	w, _, _ := Measure(func() { _ = f32.At(7) })
	b0 = append(b0, float64(w))
}
var b1 []float64
one := f32.Sum().Realize()
for i := 0; i < 101; i++ {
	w, _, _ := Measure(func() { _ = one.Item() })
	b1 = append(b1, float64(w))
}
us := func(v []float64) string { m, lo, hi := med(v); return fmt.Sprintf("%.1f µs (%.1f–%.1f)", m/1e3, lo/1e3, hi/1e3) }
fmt.Println()
fmt.Println("At(7) of the 8 Mi-element tensor:", us(b0), "· Item() of a realized sum:", us(b1), "(wall, 101 calls)")''',
]
nb = {"nbformat": 4, "nbformat_minor": 5,
      "metadata": {"kernelspec": {"name": "tick", "display_name": "tick", "language": "go"}},
      "cells": [{"cell_type": "code", "id": "c%d" % i, "metadata": {}, "source": s, "outputs": [],
                 "execution_count": None} for i, s in enumerate(cells)]}
json.dump(nb, open(sys.argv[1], "w"))
PY
echo "load before: $(cat /proc/loadavg 2>/dev/null)"
bin/tick run "$out/readback.ipynb" -o "$out/readback.out.ipynb" >"$out/log" 2>&1 || { tail -20 "$out/log"; exit 1; }
echo "load after:  $(cat /proc/loadavg 2>/dev/null)"
/usr/bin/python3 - "$out/readback.out.ipynb" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["cells"][3:]:
    for o in c.get("outputs", []):
        if o["output_type"] == "stream":
            print("".join(o["text"]), end="")
PY
