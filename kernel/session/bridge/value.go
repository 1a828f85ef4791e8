package bridge

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// Rich-output methods a cell value may offer.
type (
	htmler     interface{ HTML() string }
	markdowner interface{ Markdown() string }
	svger      interface{ SVG() string }
)

// Echoed reports whether a cell's value is shown as its result. A
// *display.Handle is not: the output it refers to is already shown (the
// call that returned it published it), so a cell ending in
// display.HTML(...) shows the HTML once and no "&{<id>}" after it, as
// IPython's display() returns None.
func Echoed(v any) bool {
	_, handle := v.(*display.Handle)
	return !handle
}

// renderValue renders a cell's value: text/plain is Go's %v (strings are
// quoted as Go would), plus richer MIME types the value offers.
func renderValue(v any) *display.Data {
	b := display.Bundle{"text/plain": PlainText(v)}
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

// Render renders a cell's value: text/plain is Go's %v (strings are
// quoted as Go would; long values elided), plus richer MIME types the
// value offers. A value holding struct types declared in cells gets its
// text/plain from the cells' fmt (fmt.go), which calls their String and
// Error methods inside slices, maps and fields and names unexported
// fields as declared.
func (c *Types) Render(v any) *display.Data {
	d := renderValue(v)
	if m, ok := c.mirror(reflect.ValueOf(v), 0); ok && d != nil && d.Bundle != nil && !selfReferential(v) {
		if _, isImage := v.(image.Image); !isImage {
			d.Bundle["text/plain"] = elideText(fmt.Sprintf("%v", m))
		}
	}
	return d
}

// Limits of a cell value's text/plain, so a cell ending in a big slice or
// string neither floods the front end nor takes long to format: slices and
// arrays show their first and last elisionEdge elements (as numpy does),
// anything else is cut to its first maxPlainHead and last maxPlainTail bytes.
const (
	elisionEdge  = 50
	maxPlainHead = 8000
	maxPlainTail = 1000
)

// PlainText is a value's text/plain as a cell's value shows it.
func PlainText(v any) string {
	if selfReferential(v) {
		return elideText(boundedText(v)) + " (the value contains itself: <cycle> marks where)"
	}
	switch x := v.(type) {
	case string:
		if len(x) > maxPlainHead+maxPlainTail {
			return fmt.Sprintf("%q … %q (a string of %d bytes, middle elided; fmt.Print(s) prints it all)",
				headRunes(x, maxPlainHead), tailRunes(x, maxPlainTail), len(x))
		}
		return fmt.Sprintf("%q", x)
	case cellImage:
		r := x.Bounds()
		return fmt.Sprintf("<image %dx%d %s>", r.Dx(), r.Dy(), x.name)
	case image.Image:
		r := x.Bounds()
		return fmt.Sprintf("<image %dx%d %T>", r.Dx(), r.Dy(), x)
	}
	if s, ok := elideList(v); ok {
		return s
	}
	return elideText(fmt.Sprintf("%v", v))
}

// elideList formats a long slice or array (without its own String, Error or
// Format method) as [first … last] with its length.
func elideList(v any) (string, bool) {
	switch v.(type) {
	case fmt.Stringer, error, fmt.Formatter:
		return "", false
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k != reflect.Slice && k != reflect.Array || rv.Len() <= 2*elisionEdge {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < elisionEdge; i++ {
		fmt.Fprintf(&b, "%v ", rv.Index(i).Interface())
	}
	b.WriteString("…")
	for i := rv.Len() - elisionEdge; i < rv.Len(); i++ {
		fmt.Fprintf(&b, " %v", rv.Index(i).Interface())
	}
	fmt.Fprintf(&b, "] (len %d, %d elements elided; fmt.Println(x) prints them all)", rv.Len(), rv.Len()-2*elisionEdge)
	return elideText(b.String()), true
}

// elideText cuts text longer than the limits in the middle, saying how much.
func elideText(s string) string {
	if len(s) <= maxPlainHead+maxPlainTail {
		return s
	}
	head, tail := headRunes(s, maxPlainHead), tailRunes(s, maxPlainTail)
	return fmt.Sprintf("%s … (%d bytes elided; fmt.Println(x) prints it all) … %s", head, len(s)-len(head)-len(tail), tail)
}

// headRunes returns at most n bytes from the start of s, not splitting a rune.
func headRunes(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailRunes returns at most n bytes from the end of s, not splitting a rune.
func tailRunes(s string, n int) string {
	i := len(s) - n
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// RichMethods are the methods a cell value may offer for richer output,
// with the MIME type of their result.
var RichMethods = []rewrite.RichMethod{
	{Method: "String", MIME: "text/plain"}, {Method: "Error", MIME: "text/plain"},
	{Method: "HTML", MIME: "text/html"}, {Method: "Markdown", MIME: "text/markdown"}, {Method: "SVG", MIME: "image/svg+xml"},
}
