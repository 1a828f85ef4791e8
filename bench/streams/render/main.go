// Command render writes the C that tick's CPU device compiles for the folds
// over axis 0 of a 4096×4096 float32 matrix (Sum(0), Max(0), Min(0): the
// kernels of BenchmarkCPUAxis0Fold and of bench/cpu.sh's "axis 0" rows),
// one file per fold (sum.c, max.c, min.c) in the directory -o, and prints
// the C compiler flags the device compiles them with. bench/streams/kernels.sh
// builds them and times them in bench/streams' harness.
//
//	go run ./bench/streams/render -o DIR
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/tick-kernel/tick/runtime/backend/cpu"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/native"
)

func main() {
	dir := flag.String("o", ".", "directory for sum.c, max.c and min.c")
	flag.Parse()
	log.SetFlags(0)
	const n = 4096
	for name, rop := range map[string]ir.ReduceOp{"sum": ir.ReduceSum, "max": ir.ReduceMax, "min": ir.ReduceMin} {
		k := &ir.Kernel{Name: "R_axis0", Shape: []int{n, n}, ReduceAxes: []int{0}, Reduce: rop,
			Expr: &ir.Node{Op: ir.OpLoad, DType: ir.Float32, Buf: 1, View: ir.View{Strides: []int{n, 1}}},
			Bufs: []ir.BufferSpec{{DType: ir.Float32, Size: n}, {DType: ir.Float32, Size: n * n}}}
		src, err := cpu.Device{}.Render(k)
		if err != nil {
			log.Fatalf("render: %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(*dir, name+".c"), []byte(src), 0o644); err != nil {
			log.Fatalf("render: %v", err)
		}
	}
	fmt.Println(strings.Join(native.DefaultFlags(), " "))
}
