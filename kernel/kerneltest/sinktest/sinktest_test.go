package sinktest_test

import (
	"fmt"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
)

var _ session.CellSink = (*sinktest.Recorder)(nil)

// A cell's output recorded and read back.
func Example() {
	r := &sinktest.Recorder{}
	r.Stream("stdout", "a")
	r.Publish(display.Data{Bundle: display.Bundle{"text/plain": "progress"}, ID: "p"})
	r.Clear(true)
	r.Stream("stderr", "oops\n")
	r.Stream("stdout", "b\n")
	fmt.Printf("%q %q %d %v %d\n", r.Text("stdout"), r.Text(""), r.Shown(), r.Clears(), r.Visible())
	// Output:
	// "ab\n" "aoops\nb\n" 2 [true] 0
}
