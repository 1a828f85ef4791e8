package session

import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"tick/display"
)

// Rich-output methods a cell value may offer.
type (
	htmler     interface{ HTML() string }
	markdowner interface{ Markdown() string }
	svger      interface{ SVG() string }
)

// renderValue renders a cell's value: text/plain is Go's %v (strings are
// quoted as Go would), plus richer MIME types the value offers.
func renderValue(v any) *display.Data {
	b := display.Bundle{"text/plain": plainText(v)}
	switch x := v.(type) {
	case *display.Data:
		if x != nil {
			return x
		}
	case display.Data:
		return &x
	case image.Image:
		var buf bytes.Buffer
		if err := png.Encode(&buf, x); err == nil {
			b["image/png"] = buf.Bytes()
		}
	}
	if h, ok := v.(htmler); ok {
		b["text/html"] = h.HTML()
	}
	if m, ok := v.(markdowner); ok {
		b["text/markdown"] = m.Markdown()
	}
	if s, ok := v.(svger); ok {
		b["image/svg+xml"] = s.SVG()
	}
	return &display.Data{Bundle: b}
}

func plainText(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case image.Image:
		r := x.Bounds()
		return fmt.Sprintf("<image %dx%d %T>", r.Dx(), r.Dy(), x)
	}
	return fmt.Sprintf("%v", v)
}
