package bridge

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/internal/yaegiprivate"
	"github.com/tick-kernel/tick/kernel/session/rt"
	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// This file prints values of cell types (registry.go) the way Go's fmt
// does: the fmt functions cell code calls replace each operand that is or
// contains a registered type by a proxy (a fmt.Formatter) that calls the
// type's Error or String method, names fields as declared (secret, not
// Xsecret) and the type as main.T (%#v, %T). Operands without cell types
// are passed to fmt unchanged.

// mirror returns the proxy that prints v (at fmt's depth) as Go would,
// and false when fmt prints v right as it is.
func (c *Types) mirror(v reflect.Value, depth int) (any, bool) {
	if !v.IsValid() || !c.needs(v.Type()) {
		return nil, false
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return nil, false
		}
		return c.mirror(v.Elem(), depth+1)
	case reflect.Struct:
		if ct := c.lookup(t); ct != nil {
			return &cellProxy{c: c, v: v, ct: ct, depth: depth}, true
		}
		if yaegiprivate.IsValueInterface(t) {
			in := yaegiprivate.InterfaceValue(v)
			if !in.IsValid() || !in.CanInterface() {
				return nil, false
			}
			if m, ok := c.mirror(in, depth); ok {
				return m, true
			}
			return in.Interface(), true
		}
		for i := 0; i < v.NumField(); i++ {
			if _, ok := c.mirror(v.Field(i), depth+1); ok {
				return &cellProxy{c: c, v: v, depth: depth}, true
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			return nil, false
		}
		if ct := c.lookup(t.Elem()); ct != nil {
			if _, _, ok := ct.method(true); ok {
				return &cellProxy{c: c, v: v, ct: ct, depth: depth}, true
			}
		}
		if depth > 0 {
			return nil, false // fmt prints a nested pointer's address
		}
		switch t.Elem().Kind() {
		case reflect.Struct, reflect.Array, reflect.Slice, reflect.Map:
			if _, ok := c.mirror(v.Elem(), depth+1); ok {
				return &cellProxy{c: c, v: v, depth: depth}, true
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && v.IsNil() {
			return nil, false
		}
		for i := 0; i < v.Len(); i++ {
			if _, ok := c.mirror(v.Index(i), depth+1); ok {
				return &cellProxy{c: c, v: v, depth: depth}, true
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return nil, false
		}
		it := v.MapRange()
		for it.Next() {
			if _, ok := c.mirror(it.Key(), depth+1); ok {
				return &cellProxy{c: c, v: v, depth: depth}, true
			}
			if _, ok := c.mirror(it.Value(), depth+1); ok {
				return &cellProxy{c: c, v: v, depth: depth}, true
			}
		}
	}
	return nil, false
}

// cellProxy prints a value holding cell types. ct is set when v is a cell
// type (or a pointer to one, with a method).
type cellProxy struct {
	c     *Types
	v     reflect.Value
	ct    *cellType
	depth int
}

// Format prints the value as fmt's printValue would.
func (p *cellProxy) Format(f fmt.State, verb rune) {
	dir := directive(f, verb)
	sharp := verb == 'v' && f.Flag('#')
	plus := verb == 'v' && f.Flag('+')
	v := p.v
	if p.ct != nil && !sharp && strings.ContainsRune("vsqxX", verb) {
		if name, m, ok := p.ct.method(v.Kind() == reflect.Pointer); ok {
			p.callMethod(f, dir, verb, name, m)
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		io.WriteString(f, "&")
		p.c.print(f, dir, v.Elem(), p.depth+1)
	case reflect.Struct:
		if sharp {
			io.WriteString(f, p.c.typeName(v.Type()))
		}
		io.WriteString(f, "{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				io.WriteString(f, sep(sharp))
			}
			if plus || sharp {
				io.WriteString(f, p.fieldName(i)+":")
			}
			p.c.print(f, dir, v.Field(i), p.depth+1)
		}
		io.WriteString(f, "}")
	case reflect.Slice, reflect.Array:
		if sharp {
			io.WriteString(f, p.c.typeName(v.Type())+"{")
		} else {
			io.WriteString(f, "[")
		}
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				io.WriteString(f, sep(sharp))
			}
			p.c.print(f, dir, v.Index(i), p.depth+1)
		}
		io.WriteString(f, map[bool]string{true: "}", false: "]"}[sharp])
	case reflect.Map:
		if sharp {
			io.WriteString(f, p.c.typeName(v.Type())+"{")
		} else {
			io.WriteString(f, "map[")
		}
		for i, k := range sortKeys(v.MapKeys()) {
			if i > 0 {
				io.WriteString(f, sep(sharp))
			}
			p.c.print(f, dir, k, p.depth+1)
			io.WriteString(f, ":")
			p.c.print(f, dir, v.MapIndex(k), p.depth+1)
		}
		io.WriteString(f, map[bool]string{true: "}", false: "]"}[sharp])
	}
}

// callMethod prints the result of the value's Error or String method as
// fmt does (with the verb's flags), a panic in it as fmt reports one.
func (p *cellProxy) callMethod(f fmt.State, dir string, verb rune, name string, m cellMethod) {
	arg := p.v
	if arg.Kind() == reflect.Pointer && !m.ptr {
		arg = arg.Elem()
	}
	var s string
	func() {
		defer func() {
			if r := recover(); r != nil {
				s = fmt.Sprintf("%%!%c(PANIC=%s method: %v)", verb, name, rt.PlainValue(r))
				dir = "%s"
			}
		}()
		s = m.fn(arg.Interface())
	}()
	fmt.Fprintf(f, dir, s)
}

func (p *cellProxy) fieldName(i int) string {
	if p.ct != nil && i < len(p.ct.fields) {
		return p.ct.fields[i]
	}
	return p.v.Type().Field(i).Name
}

func sep(sharp bool) string {
	if sharp {
		return ", "
	}
	return " "
}

// print prints v (an element or field, at depth) with directive dir.
func (c *Types) print(f fmt.State, dir string, v reflect.Value, depth int) {
	if m, ok := c.mirror(v, depth); ok {
		fmt.Fprintf(f, dir, m)
		return
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch {
	case !v.IsValid() || v.Kind() == reflect.Interface:
		io.WriteString(f, "<nil>")
	case v.Kind() == reflect.Pointer && strings.HasSuffix(dir, "#v"):
		fmt.Fprintf(f, "(%s)(nil)", c.typeName(v.Type()))
	case v.Kind() == reflect.Pointer && !v.IsNil():
		// a nested pointer prints as its address
		if strings.HasSuffix(dir, "#v") {
			fmt.Fprintf(f, "(%s)(%#x)", c.typeName(v.Type()), v.Pointer())
		} else if strings.HasSuffix(dir, "v") {
			fmt.Fprintf(f, "%#x", v.Pointer())
		} else {
			fmt.Fprintf(f, dir, v.Pointer())
		}
	case v.CanInterface():
		fmt.Fprintf(f, dir, v.Interface())
	default:
		fmt.Fprintf(f, dir, v)
	}
}

// typeName writes type t as Go does, with the names of cell types.
func (c *Types) typeName(t reflect.Type) string {
	if t == nil {
		return "<nil>"
	}
	if ct := c.lookup(t); ct != nil {
		return ct.name
	}
	if !c.needs(t) || t.Name() != "" {
		return t.String()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + c.typeName(t.Elem())
	case reflect.Slice:
		return "[]" + c.typeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + c.typeName(t.Elem())
	case reflect.Map:
		return "map[" + c.typeName(t.Key()) + "]" + c.typeName(t.Elem())
	}
	return t.String()
}

// directive rebuilds the formatting directive fmt called Format with.
func directive(f fmt.State, verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	for _, fl := range "+-# 0" {
		if f.Flag(int(fl)) {
			b.WriteRune(fl)
		}
	}
	if w, ok := f.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if p, ok := f.Precision(); ok {
		b.WriteString("." + strconv.Itoa(p))
	}
	b.WriteRune(verb)
	return b.String()
}

// sortKeys orders map keys as fmt does for the kinds it can tell apart
// here (numbers, strings, bools); others by their text.
func sortKeys(keys []reflect.Value) []reflect.Value {
	less := func(a, b reflect.Value) bool {
		if a.Kind() == reflect.Interface {
			a = a.Elem()
		}
		if b.Kind() == reflect.Interface {
			b = b.Elem()
		}
		if a.Kind() == b.Kind() {
			switch a.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				return a.Int() < b.Int()
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				return a.Uint() < b.Uint()
			case reflect.Float32, reflect.Float64:
				return a.Float() < b.Float()
			case reflect.String:
				return a.String() < b.String()
			case reflect.Bool:
				return !a.Bool() && b.Bool()
			}
		}
		return fmt.Sprint(a) < fmt.Sprint(b)
	}
	sort.SliceStable(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	return keys
}

// PanicText is what Go's runtime prints after "panic: " for x, a value
// of a cell type (or a pointer to one): its Error or String method's
// result; for a struct without them the type and fields (Go prints the
// type and an address).
func (c *Types) PanicText(x any) (string, bool) {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		return "", false
	}
	t, ptr := v.Type(), false
	if t.Kind() == reflect.Pointer && !v.IsNil() {
		t, ptr = t.Elem(), true
	}
	ct := c.lookup(t)
	if ct == nil {
		return "", false
	}
	p := &cellProxy{c: c, v: v, ct: ct}
	if _, _, ok := ct.method(ptr); ok {
		return fmt.Sprint(p), true
	}
	return fmt.Sprintf("(%s) %+v", c.typeName(v.Type()), p), true
}

// Args returns a's operands with those that hold cell types replaced by
// their proxies (a itself when none does).
func (c *Types) Args(a []any) []any {
	if c.n.Load() == 0 {
		return a
	}
	var out []any
	for i, x := range a {
		if plainOperand(x) {
			continue
		}
		if m, ok := c.mirror(reflect.ValueOf(x), 0); ok {
			if out == nil {
				out = append([]any{}, a...)
			}
			out[i] = m
		}
	}
	if out == nil {
		return a
	}
	return out
}

// stringerValue returns the value inside x when x is the interpreter's
// wrapper of a cell value with a String or Format method (fmt's MapTypes)
// that kept the value: a named non-struct type (type Weekday int) or a
// pointer. Of a struct value the wrapper keeps one of its fields instead:
// callers check that no cell struct has a field of that type (fieldType).
func stringerValue(x any) (reflect.Value, bool) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Struct || v.Type().PkgPath() != std.WrapperPkgPath ||
		!strings.HasPrefix(v.Type().Name(), "_fmt_") || v.NumField() == 0 || v.Type().Field(0).Name != "IValue" {
		return reflect.Value{}, false
	}
	in := v.Field(0)
	for in.Kind() == reflect.Interface && !in.IsNil() {
		in = in.Elem()
	}
	if !in.IsValid() || in.Kind() == reflect.Struct || in.Kind() == reflect.Interface || !in.CanInterface() {
		return reflect.Value{}, false
	}
	return in, true
}

// plainOperand reports, without reflection, that x is of a basic type
// (no cell type can be one: the fast path of ordinary fmt calls).
func plainOperand(x any) bool {
	switch x.(type) {
	case nil, int, int64, int32, uint8, uint, uint64, float64, float32, string, bool, error:
		return true
	}
	return false
}

// formatArgs is args for a Printf-style call: an operand of %T that is a
// cell type is replaced by its type's name (the verb by %s), an operand
// of %w is kept.
func (c *Types) formatArgs(format string, a []any) (string, []any) {
	if c.n.Load() == 0 {
		return format, a
	}
	verbs := scanVerbs(format, len(a))
	out := append([]any{}, a...)
	changed := false
	var nf []byte
	typed := map[int]bool{} // operands of %T: printed as their type's name only
	for _, vb := range verbs {
		if vb.verb == 'T' {
			typed[vb.arg] = true
		}
	}
	for _, vb := range verbs {
		x := a[vb.arg]
		if typed[vb.arg] && vb.verb != 'T' {
			continue
		}
		if in, ok := stringerValue(x); ok && !c.fieldType(in.Type()) && (vb.verb == 'T' || vb.sharp || !strings.ContainsRune("vsqxX", vb.verb)) {
			// Go calls String only for the string verbs: the others see the value
			x = in.Interface()
			out[vb.arg], changed = x, true
		}
		switch vb.verb {
		case 'w':
			if e, ok := c.asError(x); ok {
				out[vb.arg] = e
				changed = true
			}
		case 'T':
			t := reflect.TypeOf(x)
			if e, ok := x.(error); ok {
				if v := c.errorValue(e); v.IsValid() { // the interpreter's wrapper of a cell error
					t = v.Type()
				}
			}
			if t == nil || !c.needs(t) {
				continue
			}
			if nf == nil {
				nf = []byte(format)
			}
			nf[vb.pos] = 's'
			out[vb.arg] = c.typeName(t)
			changed = true
		default:
			if plainOperand(x) {
				continue
			}
			if m, ok := c.mirror(reflect.ValueOf(x), 0); ok {
				out[vb.arg] = m
				changed = true
			}
		}
	}
	if !changed {
		return format, a
	}
	if nf != nil {
		format = string(nf)
	}
	return format, out
}

// fmtVerb is a verb of a format and the operand it prints.
type fmtVerb struct {
	pos   int // byte offset of the verb in the format
	arg   int
	verb  rune
	sharp bool // the # flag
}

// scanVerbs finds the verbs of format and their operands, as fmt's
// doPrintf numbers them (argument indexes, * widths and precisions).
func scanVerbs(format string, n int) []fmtVerb {
	var out []fmtVerb
	arg := 0
	index := func(i int) (int, bool) { // parses [k] at format[i]
		j := strings.IndexByte(format[i:], ']')
		if j < 0 {
			return i, false
		}
		k, err := strconv.Atoi(format[i+1 : i+j])
		if err != nil || k < 1 {
			return i + j + 1, false
		}
		arg = k - 1
		return i + j + 1, true
	}
	number := func(i int) int { // skips a width or precision at format[i]: [k], *, digits
		if i < len(format) && format[i] == '[' {
			i, _ = index(i)
		}
		if i < len(format) && format[i] == '*' {
			arg++
			i++
		}
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			i++
		}
		return i
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		sharp := false
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			sharp = sharp || format[i] == '#'
			i++
		}
		i = number(i)
		if i < len(format) && format[i] == '.' {
			i = number(i + 1)
		}
		if i < len(format) && format[i] == '[' {
			i, _ = index(i)
		}
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		if arg < n && format[i] < 0x80 {
			out = append(out, fmtVerb{pos: i, arg: arg, verb: rune(format[i]), sharp: sharp})
		}
		arg++
	}
	return out
}
