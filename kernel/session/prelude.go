package session

import (
	"fmt"
	"reflect"
)

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
// functions. Calls with only untyped constants are folded by the rewrite
// pass fold-min-max instead (yaegi cannot infer T from them).
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
	if _, err := s.ip.Eval(stdGenericsSource); err != nil {
		return fmt.Errorf("session: loading the standard library's generic functions: %w", err)
	}
	if !s.importCellTypes() {
		return fmt.Errorf("session: importing the cell types package %s", cellTypesPath)
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
