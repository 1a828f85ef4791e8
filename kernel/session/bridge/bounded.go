package bridge

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Values that Go's fmt cannot print: a map or slice that contains itself
// (m["self"] = m) makes fmt recurse until the stack overflows, which is a
// fatal error for the whole process, not a panic. The cell's value and
// the fmt printing functions cell code calls check their operands first
// (selfReferential); such a value is printed by boundedText instead,
// which writes "<cycle>" where the value contains itself and "…" past
// maxPrintDepth.

// maxPrintDepth bounds how deep boundedText and selfReferential go.
const maxPrintDepth = 64

// selfReferential reports whether printing v with %v would not end: it
// contains itself through maps, slices or interfaces, or nests deeper
// than maxPrintDepth.
func selfReferential(v any) bool {
	c := cycleCheck{seen: map[uintptr]bool{}}
	return c.walk(reflect.ValueOf(v), 0)
}

type cycleCheck struct{ seen map[uintptr]bool }

// walk reports whether v (at depth d) loops.
func (c *cycleCheck) walk(v reflect.Value, d int) bool {
	if !v.IsValid() {
		return false
	}
	if d > maxPrintDepth {
		return true
	}
	if !mayNest(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && c.walk(v.Elem(), d+1)
	case reflect.Pointer:
		// fmt prints the pointer of a nested pointer, and follows only
		// the outermost one
		return d == 0 && !v.IsNil() && c.walk(v.Elem(), d+1)
	case reflect.Map, reflect.Slice:
		if v.IsNil() {
			return false
		}
		p := v.Pointer()
		if c.seen[p] {
			return true
		}
		c.seen[p] = true
		defer delete(c.seen, p)
		if v.Kind() == reflect.Map {
			it := v.MapRange()
			for it.Next() {
				if c.walk(it.Key(), d+1) || c.walk(it.Value(), d+1) {
					return true
				}
			}
			return false
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if c.walk(v.Index(i), d+1) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if c.walk(v.Field(i), d+1) {
				return true
			}
		}
	}
	return false
}

// mayNest reports whether a value of type t can contain a map, slice or
// interface, the ways a value can contain itself.
func mayNest(t reflect.Type) bool {
	return mayNestDepth(t, 0)
}

func mayNestDepth(t reflect.Type, d int) bool {
	if d > 8 {
		return true
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Map, reflect.Slice, reflect.Pointer:
		return true
	case reflect.Array:
		return mayNestDepth(t.Elem(), d+1)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if mayNestDepth(t.Field(i).Type, d+1) {
				return true
			}
		}
	}
	return false
}

// boundedText formats v as %v does, writing <cycle> where v contains
// itself and … below maxPrintDepth.
func boundedText(v any) string {
	var b strings.Builder
	p := boundedPrinter{w: &b, seen: map[uintptr]bool{}}
	p.print(reflect.ValueOf(v), 0)
	return b.String()
}

type boundedPrinter struct {
	w    io.Writer
	seen map[uintptr]bool
}

func (p *boundedPrinter) print(v reflect.Value, d int) {
	if !v.IsValid() {
		io.WriteString(p.w, "<nil>")
		return
	}
	if d > maxPrintDepth {
		io.WriteString(p.w, "…")
		return
	}
	if !mayNest(v.Type()) {
		if v.CanInterface() {
			fmt.Fprintf(p.w, "%v", v.Interface())
		} else {
			fmt.Fprintf(p.w, "%v", v)
		}
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			io.WriteString(p.w, "<nil>")
			return
		}
		p.print(v.Elem(), d+1)
	case reflect.Pointer:
		if d > 0 || v.IsNil() {
			fmt.Fprintf(p.w, "%v", v)
			return
		}
		io.WriteString(p.w, "&")
		p.print(v.Elem(), d+1)
	case reflect.Map, reflect.Slice:
		if v.IsNil() {
			if v.Kind() == reflect.Map {
				io.WriteString(p.w, "map[]")
			} else {
				io.WriteString(p.w, "[]")
			}
			return
		}
		ptr := v.Pointer()
		if p.seen[ptr] {
			io.WriteString(p.w, "<cycle>")
			return
		}
		p.seen[ptr] = true
		defer delete(p.seen, ptr)
		if v.Kind() == reflect.Map {
			io.WriteString(p.w, "map[")
			for i, k := range sortedKeys(v) {
				if i > 0 {
					io.WriteString(p.w, " ")
				}
				p.print(k, d+1)
				io.WriteString(p.w, ":")
				p.print(v.MapIndex(k), d+1)
			}
			io.WriteString(p.w, "]")
			return
		}
		p.list(v, d)
	case reflect.Array:
		p.list(v, d)
	case reflect.Struct:
		io.WriteString(p.w, "{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				io.WriteString(p.w, " ")
			}
			p.print(v.Field(i), d+1)
		}
		io.WriteString(p.w, "}")
	default:
		fmt.Fprintf(p.w, "%v", v)
	}
}

func (p *boundedPrinter) list(v reflect.Value, d int) {
	io.WriteString(p.w, "[")
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			io.WriteString(p.w, " ")
		}
		p.print(v.Index(i), d+1)
	}
	io.WriteString(p.w, "]")
}

// sortedKeys returns the keys of map v in fmt's order where it can tell
// (strings and numbers), else in iteration order.
func sortedKeys(v reflect.Value) []reflect.Value {
	keys := v.MapKeys()
	less := func(a, b reflect.Value) bool { return fmt.Sprint(a) < fmt.Sprint(b) }
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && less(keys[j], keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// SafeArgs replaces the operands of a fmt call that would not end with
// their bounded text.
func SafeArgs(a []any) []any {
	var out []any
	for i, x := range a {
		if selfReferential(x) {
			if out == nil {
				out = append([]any{}, a...)
			}
			out[i] = boundedValue{x}
		}
	}
	if out == nil {
		return a
	}
	return out
}

// boundedValue prints its value with boundedText whatever the verb.
type boundedValue struct{ v any }

func (b boundedValue) Format(f fmt.State, verb rune) { io.WriteString(f, boundedText(b.v)) }

// FmtSymbols returns the fmt printing functions for cell code, printing
// to out: Go's, with self-referential operands printed by boundedText and
// values of cell types printed as Go prints them (fmt.go).
func (c *Types) FmtSymbols(out io.Writer) map[string]map[string]reflect.Value {
	// "fmt/./fmt" is package fmt to the interpreter (path.Dir and
	// path.Base of it are "fmt"), but not the key "fmt/fmt" whose presence
	// makes it load its standard library fixes again, which would replace
	// these functions.
	ct := c
	syms := map[string]reflect.Value{
		"Print":   reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprint(out, ct.Args(SafeArgs(a))...) }),
		"Println": reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprintln(out, ct.Args(SafeArgs(a))...) }),
		"Printf": reflect.ValueOf(func(f string, a ...any) (int, error) {
			f, a = ct.formatArgs(f, SafeArgs(a))
			return fmt.Fprintf(out, f, a...)
		}),
		"Sprint":   reflect.ValueOf(func(a ...any) string { return fmt.Sprint(ct.Args(SafeArgs(a))...) }),
		"Sprintln": reflect.ValueOf(func(a ...any) string { return fmt.Sprintln(ct.Args(SafeArgs(a))...) }),
		"Sprintf":  reflect.ValueOf(func(f string, a ...any) string { f, a = ct.formatArgs(f, SafeArgs(a)); return fmt.Sprintf(f, a...) }),
		"Fprint":   reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprint(w, ct.Args(SafeArgs(a))...) }),
		"Fprintln": reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprintln(w, ct.Args(SafeArgs(a))...) }),
		"Fprintf": reflect.ValueOf(func(w io.Writer, f string, a ...any) (int, error) {
			f, a = ct.formatArgs(f, SafeArgs(a))
			return fmt.Fprintf(w, f, a...)
		}),
		"Errorf": reflect.ValueOf(func(f string, a ...any) error { f, a = ct.formatArgs(f, a); return fmt.Errorf(f, a...) }),
	}
	// the interpreter gives a cell type's String and Format methods to
	// the native functions listed in its MapTypes: these are fmt's too.
	mt := []reflect.Type{reflect.TypeOf((*fmt.Formatter)(nil)).Elem(), reflect.TypeOf((*fmt.Stringer)(nil)).Elem()}
	types := map[reflect.Value][]reflect.Type{}
	for _, v := range syms {
		types[v] = mt
	}
	return map[string]map[string]reflect.Value{"fmt/./fmt": syms, ".": {"MapTypes": reflect.ValueOf(types)}}
}
