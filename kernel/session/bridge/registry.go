package bridge

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/internal/yaegiprivate"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// This file keeps the session's registry of struct types declared in
// cells. The interpreter builds such a type with reflect.StructOf: native
// code (fmt, encoding/json, the value renderer) sees a struct without a
// name, without methods and with unexported fields renamed Xname. After a
// cell declares a struct type or a method of one, the session registers
// the type's reflect type with its name, its fields' declared names and
// its String and Error methods (as interpreted closures), so that the fmt
// and json functions cell code calls print it as Go does (fmt.go).
//
// The interpreter's types are structural: two cell types with the same
// fields have the same reflect type (and so does an anonymous struct of
// that shape). Such a reflect type is marked ambiguous and printed as the
// interpreter does. Named non-struct types (type Celsius float64) are the
// plain reflect type (float64) and cannot be told apart at all.

// Path is the import path of the registration package (Types.Exports);
// generated code imports it as Name.
const (
	Path = "tick/kernel/session/celltypes"
	Name = rewrite.CellTypes
)

// Types is one session's registry of the struct types its cells declared.
type Types struct {
	n     atomic.Int32 // registered types: 0 makes every lookup free
	mu    sync.RWMutex
	types map[reflect.Type]*cellType
	names map[string]reflect.Type
	need  map[reflect.Type]bool // may a value of this type print differently (cache)
}

// cellType is a struct type a cell declared.
type cellType struct {
	name      string   // as %T prints it: "main.Point"
	fields    []string // the fields' declared names, by index
	ambiguous bool     // another cell type has the same reflect type
	methods   map[string]cellMethod
}

// cellMethod is a String or Error method of a cell type, callable from
// native code with a value of the type (or a pointer to it, for ptr).
type cellMethod struct {
	ptr bool
	fn  func(any) string
}

// NewTypes returns an empty registry.
func NewTypes() *Types {
	return &Types{types: map[reflect.Type]*cellType{}, names: map[string]reflect.Type{}, need: map[reflect.Type]bool{}}
}

// lookup returns the registered, unambiguous cell type of t, or nil.
func (c *Types) lookup(t reflect.Type) *cellType {
	if c.n.Load() == 0 || t.Kind() != reflect.Struct {
		return nil
	}
	c.mu.RLock()
	ct := c.types[t]
	c.mu.RUnlock()
	if ct == nil || ct.ambiguous {
		return nil
	}
	return ct
}

// known reports whether t is the reflect type of a cell type, ambiguous
// or not.
func (c *Types) known(t reflect.Type) bool {
	if c.n.Load() == 0 {
		return false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.types[t] != nil
}

// fieldType reports whether some cell struct type has a field of type t
// (or of an interface type, which may hold one): a value of type t may then
// be the field the interpreter's fmt wrapper kept of a struct.
func (c *Types) fieldType(t reflect.Type) bool {
	if c.n.Load() == 0 {
		return false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for st := range c.types {
		for i := 0; i < st.NumField(); i++ {
			if ft := st.Field(i).Type; ft == t || ft.Kind() == reflect.Interface {
				return true
			}
		}
	}
	return false
}

// method returns the method of ct that fmt calls on a value (or, with
// ptr, a pointer): Error first, then String.
func (ct *cellType) method(ptr bool) (string, cellMethod, bool) {
	for _, name := range []string{"Error", "String"} {
		if m, ok := ct.methods[name]; ok && (ptr || !m.ptr) {
			return name, m, true
		}
	}
	return "", cellMethod{}, false
}

// Exports is the symbol table of the registration functions the
// generated code calls, and of errors.As and errors.Is (errors.go).
func (c *Types) Exports() interp.Exports {
	ex := interp.Exports{Path + "/" + Name: {
		"Struct":    reflect.ValueOf(c.addStruct),
		"Method":    reflect.ValueOf(c.addMethod),
		"Image":     reflect.ValueOf(c.image),
		"AsError":   reflect.ValueOf(c.assertError),
		"MustError": reflect.ValueOf(c.mustError),
	}}
	for k, v := range c.errorsSymbols() {
		ex[k] = v
	}
	return ex
}

// JSONExports is the symbol table of encoding/json's Marshal functions
// for cell code (json.go): Use it on its own ("." is its MapTypes).
func (c *Types) JSONExports() interp.Exports {
	return c.jsonSymbols()
}

// image returns m (the interpreter's wrapper of a cell value with
// image.Image's methods) named by the cell type of raw, the same value
// as the interpreter passes it to an any.
func (c *Types) image(m image.Image, raw any) any {
	name := fmt.Sprintf("%T", m)
	if t := reflect.TypeOf(raw); t != nil {
		name = c.typeName(t)
	}
	return cellImage{Image: m, name: name}
}

// cellImage is an image of a type declared in a cell, as the cell's value.
type cellImage struct {
	image.Image
	name string
}

// addStruct registers the reflect type of *ptr as cell type name.
func (c *Types) addStruct(name string, ptr any, fields []string) {
	t := reflect.TypeOf(ptr)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return
	}
	t = t.Elem()
	if t.NumField() == 0 {
		return // struct{}: the reflect type of every empty struct
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.types[t]; old != nil && old.name != "main."+name {
		amb := *old // a cellType is never changed once published: printing reads it unlocked
		amb.ambiguous = true
		c.types[t] = &amb
		c.need = map[reflect.Type]bool{}
		return
	}
	if len(fields) != t.NumField() {
		fields = nil
	}
	ct := &cellType{name: "main." + name, fields: fields, methods: map[string]cellMethod{}}
	if old := c.types[t]; old != nil { // the same type again (its cell ran again)
		ct.methods, ct.ambiguous = old.methods, old.ambiguous
	}
	c.types[t] = ct
	c.names[name] = t
	c.need = map[reflect.Type]bool{}
	c.n.Store(int32(len(c.types)))
}

// addMethod registers method (String or Error) of cell type name.
func (c *Types) addMethod(name, method string, ptr bool, fn func(any) string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.names[name]
	if !ok || c.types[t].name != "main."+name {
		return
	}
	ct := *c.types[t]
	ct.methods = map[string]cellMethod{method: {ptr: ptr, fn: fn}}
	for k, m := range c.types[t].methods {
		if k != method {
			ct.methods[k] = m
		}
	}
	c.types[t] = &ct
}

// needs reports whether a value of type t may print differently from
// the interpreter's way: it is or contains a registered type, or an
// interface (whose dynamic value may be one).
func (c *Types) needs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Struct, reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
	default:
		return false
	}
	if c.n.Load() == 0 {
		return false
	}
	c.mu.RLock()
	v, ok := c.need[t]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.needsLocked(t, map[reflect.Type]bool{})
}

func (c *Types) needsLocked(t reflect.Type, busy map[reflect.Type]bool) (need bool) {
	if v, ok := c.need[t]; ok {
		return v
	}
	if busy[t] {
		return false
	}
	busy[t] = true
	defer func() {
		delete(busy, t)
		c.need[t] = need
	}()
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Struct:
		if ct := c.types[t]; ct != nil && !ct.ambiguous {
			return true
		}
		if yaegiprivate.IsValueInterface(t) {
			return true
		}
		if t.NumMethod() > 0 || t.PkgPath() != "" {
			return false // a native type (or an interpreter's interface wrapper)
		}
		for i := 0; i < t.NumField(); i++ {
			if c.needsLocked(t.Field(i).Type, busy) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return c.needsLocked(t.Elem(), busy)
	case reflect.Map:
		return c.needsLocked(t.Key(), busy) || c.needsLocked(t.Elem(), busy)
	}
	return false
}

// Registered returns the names of the types f, a piece of a cell that
// ran, declares that are registered: its struct types, and the types it
// declares String or Error methods of.
func Registered(f *ast.File) []string {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams == nil && ts.Assign == 0 {
					if _, ok := ts.Type.(*ast.StructType); ok {
						names[ts.Name.Name] = true
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 && (d.Name.Name == "String" || d.Name.Name == "Error") {
				names[cell.TypeName(d.Recv.List[0].Type)] = true
			}
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Registration returns the code that registers cell type name (run it in
// the cells' scope, with package Name imported), or "" when it is not a
// struct type that can be registered. decl returns the declaration text
// of what cells declared ("T", "T.String").
func Registration(name string, decl func(name string) (string, bool)) string {
	text, _ := decl(name)
	var methods []string
	for _, m := range []string{"String", "Error"} {
		if mt, ok := decl(name + "." + m); ok {
			methods = append(methods, mt)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, 0)
	if err != nil || len(f.Decls) != 1 {
		return ""
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || len(gd.Specs) != 1 {
		return ""
	}
	st, ok := gd.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
	if !ok {
		return ""
	}
	var fields []string
	for _, fl := range st.Fields.List {
		if len(fl.Names) == 0 {
			fields = append(fields, cell.TypeName(fl.Type))
		}
		for _, n := range fl.Names {
			fields = append(fields, n.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s.Struct(%q, (*%s)(nil), %#v)\n", Name, name, name, fields)
	for _, mt := range methods {
		mf, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+mt+" {}", 0)
		if err != nil || len(mf.Decls) != 1 {
			continue
		}
		fd := mf.Decls[0].(*ast.FuncDecl)
		res := fd.Type.Results
		if fd.Type.Params.NumFields() != 0 || res == nil || res.NumFields() != 1 {
			continue
		}
		if id, ok := res.List[0].Type.(*ast.Ident); !ok || id.Name != "string" {
			continue
		}
		_, ptr := fd.Recv.List[0].Type.(*ast.StarExpr)
		recv := name
		if ptr {
			recv = "*" + name
		}
		fmt.Fprintf(&b, "%s.Method(%q, %q, %v, func(x any) string { return x.(%s).%s() })\n",
			Name, name, fd.Name.Name, ptr, recv, fd.Name.Name)
	}
	return b.String()
}
