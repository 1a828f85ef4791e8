package profiling

import (
	"strings"

	"encoding/base64"
	"errors"
	"fmt"
	"html"

	"github.com/tick-kernel/tick/kernel/session"
)

// image is a chart to show: its MIME type and bytes.
type image struct {
	mime string // "image/png" or "image/svg+xml"
	data []byte
	alt  string
}

// bundleValue is the image as a display bundle holds it: SVG as text,
// PNG as bytes (the session base64-encodes them).
func (im *image) bundleValue() any {
	if im.mime == "image/svg+xml" {
		return string(im.data)
	}
	return im.data
}

// html is the image as an <img> with a data: URI (an SVG is kept inline
// too as an image, so no front end's sanitizer drops it).
func (im *image) html() string {
	return fmt.Sprintf(`<img src="data:%s;base64,%s" alt="%s" style="max-width:100%%">`,
		im.mime, base64.StdEncoding.EncodeToString(im.data), html.EscapeString(im.alt))
}

// textAndImageHTML is the text/html of an output that must show both its
// text and its chart: front ends show one MIME type per output (Notebook 6
// and nbconvert prefer text/html over images and text, JupyterLab too), so
// the text goes in a <pre> above the image.
func textAndImageHTML(text string, im *image) string {
	var b strings.Builder
	b.WriteString(`<pre style="white-space:pre;overflow-x:auto">`)
	b.WriteString(html.EscapeString(text))
	b.WriteString("</pre>")
	if im != nil {
		b.WriteString(im.html())
	}
	return b.String()
}

// compileErr says which step failed without repeating "CompileError:"
// (a session error already names its kind and position).
func compileErr(err error) error {
	var se *session.Error
	if errors.As(err, &se) {
		return fmt.Errorf("compiling the statement: %s", se.Value)
	}
	return fmt.Errorf("compiling the statement: %w", err)
}

// isGoIdent reports whether s is a Go identifier (for -v NAME).
func isGoIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
