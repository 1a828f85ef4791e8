package session

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/png"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/tick-kernel/tick/display"
)

// Rich-output methods a cell value may offer.
type (
	htmler     interface{ HTML() string }
	markdowner interface{ Markdown() string }
	svger      interface{ SVG() string }
)

// echoed reports whether a cell's value is shown as its result. A
// *display.Handle is not: the output it refers to is already shown (the
// call that returned it published it), so a cell ending in
// display.HTML(...) shows the HTML once and no "&{<id>}" after it, as
// IPython's display() returns None.
func echoed(v any) bool {
	_, handle := v.(*display.Handle)
	return !handle
}

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

// Limits of a cell value's text/plain, so a cell ending in a big slice or
// string neither floods the front end nor takes long to format: slices and
// arrays show their first and last elisionEdge elements (as numpy does),
// anything else is cut to its first maxPlainHead and last maxPlainTail bytes.
const (
	elisionEdge  = 50
	maxPlainHead = 8000
	maxPlainTail = 1000
)

func plainText(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > maxPlainHead+maxPlainTail {
			return fmt.Sprintf("%q … %q (a string of %d bytes, middle elided; fmt.Print(s) prints it all)",
				headRunes(x, maxPlainHead), tailRunes(x, maxPlainTail), len(x))
		}
		return fmt.Sprintf("%q", x)
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

// richMethods are the methods a cell value may offer for richer output,
// with the MIME type of their result.
var richMethods = []struct{ method, mime string }{
	{"HTML", "text/html"}, {"Markdown", "text/markdown"}, {"SVG", "image/svg+xml"},
}

// fromTemplate parses a Go expression template, replaces the identifier
// ᐩX by x and returns it as a statement positioned at x.
func fromTemplate(tmpl string, x ast.Expr) ast.Stmt {
	e, err := parser.ParseExpr(tmpl)
	if err != nil {
		panic("session: bad template: " + err.Error())
	}
	zeroPos(e)
	st := &ast.ExprStmt{X: e}
	replaceExprs(st, func(e ast.Expr) ast.Expr {
		if id, ok := e.(*ast.Ident); ok && id.Name == "ᐩX" {
			return x
		}
		return nil
	})
	setPos(st, x.Pos())
	return st
}

// valueProbe compiles only when x has exactly one value (not a call of a
// function without results or with several).
func valueProbe(x ast.Expr) ast.Stmt { return fromTemplate("ᐩrt.Value(ᐩX)", x) }

// richProbe compiles only when x's static type has the method. (yaegi
// cannot assert interpreted values held in an interface to a method set,
// nor does it check assignments to interface types, so the check is a
// compiled method call.)
func richProbe(x ast.Expr, method string) ast.Stmt {
	return fromTemplate("func() { var _ string = ᐩX."+method+"() }", x)
}

// valueStmt returns the statement that captures the value of x and the
// output of the given rich methods.
func valueStmt(x ast.Expr, rich []int) ast.Stmt {
	var b strings.Builder
	b.WriteString("func() {\n\tᐩv := ᐩX\n\tᐩrt.Value(ᐩv)\n")
	for _, i := range rich {
		fmt.Fprintf(&b, "\tᐩrt.Rich(%q, ᐩv.%s())\n", richMethods[i].mime, richMethods[i].method)
	}
	b.WriteString("}()")
	return fromTemplate(b.String(), x)
}

// zeroPos clears every position in n (nodes parsed from a template carry
// positions of another file set).
func zeroPos(n ast.Node) {
	posType := reflect.TypeOf(token.NoPos)
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		v := reflect.ValueOf(n)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType && f.CanSet() {
				f.SetInt(0)
			}
		}
		return true
	})
}
