package std

import (
	"go/constant"
	"io"
	"math"
	"reflect"
	"testing"
)

// The generated tables (built by table from compact's entries) hold what
// yaegi extract's map literals held: functions, types as nil pointers,
// constants as constant.Value, and variables as the package's own variables,
// addressable so that a cell's assignment reaches them.
func TestTablesHoldTheStandardLibrary(t *testing.T) {
	ioSyms, mathSyms := Symbols["io/io"], Symbols["math/math"]
	if v := ioSyms["EOF"]; !v.CanSet() || v.Addr().Interface() != &io.EOF {
		t.Errorf("io.EOF: %v (settable %v), want the variable io.EOF itself", v, v.CanSet())
	}
	if v := ioSyms["Copy"]; v.Kind() != reflect.Func || v.Pointer() != reflect.ValueOf(io.Copy).Pointer() {
		t.Errorf("io.Copy: %v, want the function", v)
	}
	if v := ioSyms["Reader"]; v.Type() != reflect.TypeFor[*io.Reader]() || !v.IsNil() {
		t.Errorf("io.Reader: %v, want (*io.Reader)(nil)", v)
	}
	if c, ok := mathSyms["Pi"].Interface().(constant.Value); !ok || must(constant.Float64Val(c)) != math.Pi {
		t.Errorf("math.Pi: %v, want the constant", mathSyms["Pi"])
	}
	n := 0
	for pkg, syms := range Symbols {
		for name, v := range syms {
			n++
			if !v.IsValid() || v.Type() == reflect.TypeFor[variable]() || v.Type() == reflect.TypeFor[entry]() {
				t.Errorf("%s.%s: %v, a table's marker instead of the symbol", pkg, name, v)
			}
		}
	}
	if n < 3000 {
		t.Errorf("%d symbols in the tables, want the ~3,500 gen.go extracts", n)
	}
}

func must(f float64, _ bool) float64 { return f }
