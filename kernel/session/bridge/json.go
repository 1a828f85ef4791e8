package bridge

import (
	"encoding"
	"encoding/json"
	"reflect"
	"unicode"
	"unicode/utf8"
)

// This file gives cell code json.Marshal and json.MarshalIndent that encode values of struct types declared in
// cells as Go does: the interpreter renames an unexported field secret to
// the exported Xsecret, which encoding/json then wrote out ("Xsecret":...).
// A value holding cell types is copied into a native struct type without
// the unexported fields (tags kept) before it is encoded.

// jsonType returns the type v's values are copied to for encoding, and
// whether it differs from t. Recursive types are copied through `any`.
func (c *Types) jsonType(t reflect.Type, busy map[reflect.Type]bool) (reflect.Type, bool) {
	if !c.needs(t) || t.Kind() == reflect.Interface {
		return t, false
	}
	if busy[t] {
		return reflect.TypeOf((*any)(nil)).Elem(), true
	}
	busy[t] = true
	defer delete(busy, t)
	switch t.Kind() {
	case reflect.Pointer:
		if e, ok := c.jsonType(t.Elem(), busy); ok {
			return reflect.PointerTo(e), true
		}
	case reflect.Slice:
		if e, ok := c.jsonType(t.Elem(), busy); ok {
			return reflect.SliceOf(e), true
		}
	case reflect.Array:
		if e, ok := c.jsonType(t.Elem(), busy); ok {
			return reflect.ArrayOf(t.Len(), e), true
		}
	case reflect.Map:
		if e, ok := c.jsonType(t.Elem(), busy); ok {
			return reflect.MapOf(t.Key(), e), true
		}
	case reflect.Struct:
		ct := c.lookup(t)
		if ct == nil {
			return t, false
		}
		var fields []reflect.StructField
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if i < len(ct.fields) {
				if r, _ := utf8.DecodeRuneInString(ct.fields[i]); !unicode.IsUpper(r) {
					continue // unexported: encoding/json skips it
				}
			}
			f.Type, _ = c.jsonType(f.Type, busy)
			f.Index, f.Offset = nil, 0
			fields = append(fields, f)
		}
		return reflect.StructOf(fields), true
	}
	return t, false
}

// jsonCopy copies v into a value of type nt (from jsonType).
func (c *Types) jsonCopy(v reflect.Value, nt reflect.Type) reflect.Value {
	if v.Type() == nt && nt.Kind() != reflect.Interface {
		return v
	}
	out := reflect.New(nt).Elem()
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return out
		}
		e := v.Elem()
		et, _ := c.jsonType(e.Type(), map[reflect.Type]bool{})
		out.Set(c.jsonCopy(e, et))
		return out
	}
	if nt.Kind() == reflect.Interface { // a recursive type's place
		et, _ := c.jsonType(v.Type(), map[reflect.Type]bool{})
		if et.Kind() == reflect.Interface {
			out.Set(v)
		} else {
			out.Set(c.jsonCopy(v, et))
		}
		return out
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(nt.Elem())
			p.Elem().Set(c.jsonCopy(v.Elem(), nt.Elem()))
			out.Set(p)
		}
	case reflect.Slice:
		if !v.IsNil() {
			out.Set(reflect.MakeSlice(nt, v.Len(), v.Len()))
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(c.jsonCopy(v.Index(i), nt.Elem()))
		}
	case reflect.Map:
		if !v.IsNil() {
			out.Set(reflect.MakeMapWithSize(nt, v.Len()))
			it := v.MapRange()
			for it.Next() {
				out.SetMapIndex(it.Key(), c.jsonCopy(it.Value(), nt.Elem()))
			}
		}
	case reflect.Struct:
		j := 0
		for i := 0; i < v.NumField() && j < nt.NumField(); i++ {
			if v.Type().Field(i).Name == nt.Field(j).Name {
				out.Field(j).Set(c.jsonCopy(v.Field(i), nt.Field(j).Type))
				j++
			}
		}
	}
	return out
}

// jsonValue returns x ready for encoding/json.
func (c *Types) jsonValue(x any) any {
	if c.n.Load() == 0 || x == nil {
		return x
	}
	v := reflect.ValueOf(x)
	nt, ok := c.jsonType(v.Type(), map[reflect.Type]bool{})
	if !ok {
		return x
	}
	return c.jsonCopy(v, nt).Interface()
}

// jsonSymbols returns encoding/json's functions for cell code.
func (c *Types) jsonSymbols() map[string]map[string]reflect.Value {
	marshal := reflect.ValueOf(func(v any) ([]byte, error) { return json.Marshal(c.jsonValue(v)) })
	indent := reflect.ValueOf(func(v any, prefix, indent string) ([]byte, error) {
		return json.MarshalIndent(c.jsonValue(v), prefix, indent)
	})
	// a cell type with MarshalJSON or MarshalText reaches them wrapped by
	// the interpreter, as it does for Go's json.Marshal
	mt := []reflect.Type{reflect.TypeOf((*json.Marshaler)(nil)).Elem(), reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()}
	return map[string]map[string]reflect.Value{
		"encoding/json/json": {"Marshal": marshal, "MarshalIndent": indent},
		".":                  {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{marshal: mt, indent: mt})},
	}
}
