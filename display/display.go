// Package display is the API notebook cells use to show rich output: images,
// SVG, HTML, Markdown and JSON, and handles whose content can be updated in
// place.
//
// Nothing here knows about Jupyter. Whatever runs the cell (the Jupyter
// kernel, `tick run`, a test) installs a Publisher with Use; the functions of
// this package route to it. With no Publisher installed, calls are dropped.
//
//	import "tick/display"
//	display.Markdown("**hello**")
//	h := display.HTML("<b>0%</b>")
//	h.Update(display.Bundle{"text/html": "<b>100%</b>"})
package display

import (
	"sync"
)

// Bundle maps MIME types ("image/png", "text/plain", ...) to their content.
// Text formats hold a string; "image/png" holds the raw PNG bytes ([]byte)
// and is base64-encoded by the publisher; "application/json" holds any value
// that encoding/json can marshal.
type Bundle map[string]any

// Data is one rich output: the MIME bundle, its metadata, and an optional
// display ID that later updates refer to.
type Data struct {
	Bundle   Bundle
	Metadata map[string]any
	// ID is the display_id; empty when the output cannot be updated.
	ID string
}

// Publisher receives the outputs of user code. The session installs one per
// running cell.
type Publisher interface {
	// Publish shows new output (Jupyter: display_data).
	Publish(d Data)
	// Update replaces the output previously published with d.ID
	// (Jupyter: update_display_data).
	Update(d Data)
	// Clear clears the cell's output; with wait, only when new output
	// arrives (Jupyter: clear_output).
	Clear(wait bool)
}

// router holds the installed publisher. It is package state on purpose:
// user code calls package-level functions (display.PNG) and has no handle to
// pass, exactly as fmt.Println writes to the process's stdout.
var router struct {
	sync.RWMutex
	p Publisher
}

// Use installs p as the destination of this package's functions and returns
// a function that restores the previous publisher.
func Use(p Publisher) (restore func()) {
	router.Lock()
	prev := router.p
	router.p = p
	router.Unlock()
	return func() {
		router.Lock()
		router.p = prev
		router.Unlock()
	}
}

func current() Publisher {
	router.RLock()
	defer router.RUnlock()
	return router.p
}
