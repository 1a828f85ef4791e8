package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
)

// setPos gives the unset positions of the synthesised nodes in n the
// position pos, so that they carry a position in the cell's file (yaegi
// derives import scopes from node positions). It does not descend into
// nodes that already have a position (user code), and leaves alone the
// positions whose zero value has a meaning (f(x...), chan directions,
// aliases).
func setPos(n ast.Node, pos token.Pos) {
	posType := reflect.TypeOf(token.NoPos)
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil || n.Pos().IsValid() {
			return false
		}
		v := reflect.ValueOf(n)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch v.Type().Field(i).Name {
			case "Ellipsis", "Arrow", "Assign":
				continue
			}
			if f.Type() == posType && f.Int() == 0 && f.CanSet() {
				f.SetInt(int64(pos))
			}
		}
		return true
	})
}

// knownInts returns the session's global variables of integer type.
func (s *Session) knownInts() map[string]bool {
	ints := map[string]bool{}
	for name, v := range s.globals() {
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ints[name] = true
		}
	}
	return ints
}

// prelude declares the builtins of Go 1.21+ that yaegi (frozen at Go
// 1.22's library, 1.21's language) lacks, as generic package-level
// functions. Calls with only untyped constants are folded by the rewriter
// instead (yaegi cannot infer T from them).
const prelude = `
type ᐩordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}
func min[T ᐩordered](x T, y ...T) T {
	for _, v := range y {
		if v < x {
			x = v
		}
	}
	return x
}
func max[T ᐩordered](x T, y ...T) T {
	for _, v := range y {
		if v > x {
			x = v
		}
	}
	return x
}
`

// loadPrelude declares the helpers that bridge modern Go.
func (s *Session) loadPrelude() error {
	if _, err := s.ip.Eval(prelude); err != nil {
		return fmt.Errorf("session: loading the prelude: %w", err)
	}
	return nil
}

// globals returns the session's global variables and constants. yaegi's
// Globals panics after a failed compile left a symbol without storage;
// then it reports nothing.
func (s *Session) globals() (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = nil
		}
	}()
	return s.ip.Globals()
}
