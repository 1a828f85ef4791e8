package display_test

import (
	"fmt"
	"sort"

	"github.com/tick-kernel/tick/display"
)

// printer is a Publisher that prints what user code shows; the notebook
// session installs one that sends Jupyter messages instead.
type printer struct{}

func (printer) Publish(d display.Data) { fmt.Println("show", mimes(d.Bundle)) }
func (printer) Update(d display.Data)  { fmt.Println("update", mimes(d.Bundle)) }
func (printer) Clear(wait bool)        { fmt.Println("clear, wait:", wait) }

func mimes(b display.Bundle) []string {
	var ks []string
	for k := range b {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func Example() {
	restore := display.Use(printer{})
	defer restore()

	h := display.HTML("<b>0%</b>")
	h.Update(display.Bundle{"text/html": "<b>100%</b>", "text/plain": "100%"})
	display.Clear(true)
	// Output:
	// show [text/html text/plain]
	// update [text/html text/plain]
	// clear, wait: true
}
