package display

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"

	"github.com/google/uuid"
)

// Handle refers to one published output; Update replaces it in place.
type Handle struct {
	id string
}

// ID returns the display ID of the output.
func (h *Handle) ID() string { return h.id }

// Update replaces the output of h with b (Jupyter: update_display_data).
// Add a "text/plain" entry for front ends that cannot show b's types.
func (h *Handle) Update(b Bundle) {
	if p := current(); p != nil {
		p.Update(Data{Bundle: b, ID: h.id})
	}
}

// Show publishes b as a new output that can be updated later, and returns
// its handle.
func Show(b Bundle) *Handle {
	h := &Handle{id: uuid.NewString()}
	if p := current(); p != nil {
		p.Publish(Data{Bundle: b, ID: h.id})
	}
	return h
}

// PNG shows PNG-encoded image bytes.
func PNG(data []byte) *Handle {
	return Show(Bundle{"image/png": data, "text/plain": fmt.Sprintf("<PNG image, %d bytes>", len(data))})
}

// Image encodes img as PNG and shows it. An image that cannot be encoded
// is reported as text.
func Image(img image.Image) *Handle {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Show(Bundle{"text/plain": "display: cannot encode the image as PNG: " + err.Error()})
	}
	r := img.Bounds()
	return Show(Bundle{"image/png": buf.Bytes(), "text/plain": fmt.Sprintf("<image %dx%d>", r.Dx(), r.Dy())})
}

// SVG shows an SVG document.
func SVG(svg string) *Handle {
	return Show(Bundle{"image/svg+xml": svg, "text/plain": "<SVG image>"})
}

// HTML shows an HTML fragment.
func HTML(html string) *Handle {
	return Show(Bundle{"text/html": html, "text/plain": html})
}

// Markdown shows Markdown text.
func Markdown(md string) *Handle {
	return Show(Bundle{"text/markdown": md, "text/plain": md})
}

// JSON shows v as JSON (front ends render it as a tree). A value that
// encoding/json cannot marshal is reported as text.
func JSON(v any) *Handle {
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return Show(Bundle{"text/plain": "display: cannot encode the value as JSON: " + err.Error()})
	}
	var generic any
	_ = json.Unmarshal(text, &generic) // plain maps and slices for the publisher
	return Show(Bundle{"application/json": generic, "text/plain": string(text)})
}

// Text shows plain text as a display output.
func Text(s string) *Handle { return Show(Bundle{"text/plain": s}) }

// Clear clears the output of the running cell; with wait, the clearing
// happens when the next output arrives (no flicker in animations).
func Clear(wait bool) {
	if p := current(); p != nil {
		p.Clear(wait)
	}
}
