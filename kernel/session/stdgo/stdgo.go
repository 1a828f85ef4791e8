// Package stdgo holds the generic functions of the standard library that
// cells call (slices, maps, cmp, sync.OnceValue, math/rand/v2.N) and the
// builtins yaegi lacks (min, max), as Go source the session interprets:
// yaegi's symbol tables cannot hold generic functions, and its own copies
// of slices and maps fail. The rewrite pass std-generics points
// `slices.Sort` at `ᐩstdslicesᐩSort` (rewrite.StdGenericName).
//
// The shims are ordinary Go files of this package (shim_*.go), so gofmt,
// vet and the compiler check them and tests run them against the standard
// library; Source embeds them for the interpreter. In a session, ᐩrt is
// the session's runtime package, whose SortSlice and RandN are Helpers;
// here it is a variable with the same methods.
//
// Type parameters are named with a leading ᐩ (ᐩT, ᐩE): yaegi leaves the
// type parameters of a generic function it has not instantiated in the
// package scope, so a cell that declared a type of the same name (`type T
// [2]int`, `type F func(int)`) crashed the interpreter ("nil reflect
// type"; yaegi's own corpus programs const7, fun11, struct28, ...).
package stdgo

import (
	"embed"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
)

// files are the shims in the order the session declares them: the
// builtins first (the others use ᐩordered).
var files = []string{"shim_builtins.go", "shim_slices.go", "shim_maps.go", "shim_cmp.go", "shim_sync.go", "shim_rand.go", "shim_constraints.go"}

//go:embed shim_*.go
var shims embed.FS

// Source returns the shims as one piece of package-level Go for the
// interpreter: the files in order, without their package clauses.
// ordered names types ᐩrt exports (Ordered) that constraint ᐩordered lists
// besides its ~int | ... | ~string terms.
func Source(ordered ...string) string {
	var b strings.Builder
	for _, name := range files {
		text, err := shims.ReadFile(name)
		if err != nil {
			panic("stdgo: " + err.Error()) // embedded: a missing file is a bug here
		}
		_, body, ok := strings.Cut(string(text), "\npackage stdgo\n")
		if !ok {
			panic("stdgo: " + name + " has no package clause")
		}
		if len(ordered) > 0 && name == "shim_builtins.go" {
			terms := ""
			for _, o := range ordered {
				terms += " | ~ᐩrt." + o
			}
			if !strings.Contains(body, orderedEnd) {
				panic("stdgo: shim_builtins.go declares ᐩordered differently")
			}
			body = strings.Replace(body, orderedEnd, strings.TrimSuffix(orderedEnd, "\n}")+terms+"\n}", 1)
		}
		b.WriteString(body)
	}
	return b.String()
}

// orderedEnd is how the declaration of ᐩordered ends in shim_builtins.go.
const orderedEnd = "~float64 | ~string\n}"

// Ordered returns the named types of the symbol tables whose underlying
// type is ordered (time.Duration, time.Month, os.FileMode, ...), keyed by
// the name the session's ᐩrt exports each under, for Source. The
// interpreter matches a compiled package's named type against the
// constraint's ~int64 by the type's own name only, so without them
// slices.Sort([]time.Duration{...}), cmp.Compare(d1, d2) and
// max(d1, d2) were refused ("time.Duration does not implement
// main.ᐩordered"), where Go accepts every type whose underlying type is
// ordered. A type a cell declares (type Celsius float64) matches ~float64.
func Ordered(tables ...map[string]map[string]reflect.Value) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	seen := map[reflect.Type]bool{}
	name := strings.NewReplacer("/", "ᐩ", ".", "ᐩ", "-", "ᐩ")
	for _, table := range tables {
		for key, syms := range table {
			path := key[:max(strings.LastIndex(key, "/"), 0)] // "time/time": the import path, then the package name
			for sym, v := range syms {
				if !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() || strings.HasPrefix(sym, "_") {
					continue // not a type (tables hold types as nil pointers), or an interface wrapper
				}
				t := v.Type().Elem()
				if t.Name() == "" || t.PkgPath() == "" || seen[t] || !orderedKind(t.Kind()) {
					continue
				}
				seen[t] = true
				out["Orderedᐩ"+name.Replace(path)+"ᐩ"+sym] = v
			}
		}
	}
	return out
}

func orderedKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// ConstraintsPath is the import path of the constraints the shims
// declare (shim_constraints.go).
const ConstraintsPath = "golang.org/x/exp/constraints"

// Packages returns the symbol tables of the packages whose names the
// shims provide: golang.org/x/exp/constraints, empty (pass std-generics
// rewrites constraints.Float as ᐩconstraintsᐩFloat), so that importing it
// neither fetches the module nor fails.
func Packages() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{ConstraintsPath + "/constraints": {}}
}

// Helpers returns the native functions the shims call through ᐩrt, for
// the session's runtime package's symbol table.
func Helpers() map[string]reflect.Value {
	return map[string]reflect.Value{
		"SortSlice": reflect.ValueOf(sortSlice),
		"RandN":     reflect.ValueOf(randN),
	}
}

// sortSlice sorts x (a slice) with less, stably when asked.
func sortSlice(x any, less func(i, j int) bool, stable bool) {
	if stable {
		sort.SliceStable(x, less)
	} else {
		sort.Slice(x, less)
	}
}

// randN sets the integer *p points to to a random number in [0, *p), as
// math/rand/v2.N does.
func randN(p any) {
	v := reflect.ValueOf(p).Elem()
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() <= 0 {
			panic("invalid argument to N")
		}
		v.SetInt(rand.Int64N(v.Int()))
	default:
		if v.Uint() == 0 {
			panic("invalid argument to N")
		}
		v.SetUint(rand.Uint64N(v.Uint()))
	}
}

// runtimeHelpers is ᐩrt as the compiled shims see it.
type runtimeHelpers struct{}

func (runtimeHelpers) SortSlice(x any, less func(i, j int) bool, stable bool) {
	sortSlice(x, less, stable)
}
func (runtimeHelpers) RandN(p any) { randN(p) }

// ᐩrt stands for the session's runtime package when the shims are
// compiled as Go.
var ᐩrt runtimeHelpers
