package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
)

// TestHugeMakeIsAnErrorInTheCell: `make([]byte, 64<<30)` was a fatal
// "out of memory" of Go's runtime; under the memory ceiling it is an
// error in the cell, and the session keeps its variables.
func TestHugeMakeIsAnErrorInTheCell(t *testing.T) {
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if limit, src, _ := app.SetMemoryLimit(); limit <= 0 {
		t.Skipf("no memory ceiling on this machine (%s)", src)
	}
	exec := func(code string) session.Result {
		return r.Execute(context.Background(), session.Cell{Code: code, Count: 1}, &sinktest.Recorder{})
	}
	if res := exec("x := 41"); res.Err != nil {
		t.Fatal(res.Err)
	}
	for _, code := range []string{
		"b := make([]byte, 64<<30)\nlen(b)",
		"n := 1 << 33\nf := make([]float64, n)\nlen(f)",
		"m := make(map[int64]int64, int64(1)<<40)\nlen(m)",
	} {
		res := exec(code)
		if res.Err == nil || !strings.Contains(res.Err.Value, "memory limit") {
			t.Fatalf("%s: got %v, want the memory limit error", code, res.Err)
		}
	}
	res := exec("small := make([]byte, 1<<20)\nx + len(small[:1])")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "42" {
		t.Fatalf("after the refused allocations: %v %v", res.Err, res.Value)
	}
}
