package yaegiprivate

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestYaegiHasTheFields names each unexported field of yaegi tick needs.
// When a yaegi upgrade renames or retypes one, the subtest of that field
// fails: find what the new version keeps (for the lists, a heap profile of
// TestTrivialCellsRetainNoMemory in kernel/app) and update this package.
func TestYaegiHasTheFields(t *testing.T) {
	ip := reflect.TypeFor[interp.Interpreter]()
	has := func(t *testing.T, st reflect.Type, name string, kind reflect.Kind) reflect.StructField {
		t.Helper()
		f, ok := st.FieldByName(name)
		if !ok || f.Type.Kind() != kind {
			t.Fatalf("%s has no field %s of kind %v (this yaegi has %v)", st, name, kind, f.Type)
		}
		return f
	}
	t.Run("Interpreter.roots", func(t *testing.T) { has(t, ip, "roots", reflect.Slice) })
	t.Run("Interpreter.mutex", func(t *testing.T) {
		if f := has(t, ip, "mutex", reflect.Struct); f.Type.String() != "sync.RWMutex" {
			t.Fatalf("Interpreter.mutex is a %s, not a sync.RWMutex", f.Type)
		}
	})
	t.Run("Interpreter.scopes", func(t *testing.T) {
		f := has(t, ip, "scopes", reflect.Map)
		t.Run("scope.child", func(t *testing.T) { has(t, f.Type.Elem().Elem(), "child", reflect.Slice) })
	})
	if !lists.ok {
		t.Error("Release found the fields missing: it releases nothing")
	}
	t.Run("valueInterface.value", func(t *testing.T) {
		v := shape(t)
		if !IsValueInterface(v.Type()) {
			t.Fatalf("a []Shape element is a %s (%s), not yaegi's valueInterface", v.Type(), v.Type().PkgPath())
		}
		in := InterfaceValue(v)
		if !in.IsValid() || in.Kind() != reflect.Struct || in.Field(0).Int() != 7 {
			t.Fatalf("valueInterface.value is %v, want the Square{7} it holds", in)
		}
	})
}

// shape returns yaegi's representation of a Square in a []Shape, Shape an
// interface type declared in interpreted code.
func shape(t *testing.T) reflect.Value {
	t.Helper()
	ip := interp.New(interp.Options{})
	_, err := ip.Eval("type Shape interface{ Side() int }\ntype Square struct{ S int }\nfunc (q Square) Side() int { return q.S }\nvar shapes = []Shape{Square{7}}")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ip.Eval("shapes")
	if err != nil {
		t.Fatal(err)
	}
	return v.Index(0)
}

// Release empties the lists, and a released interpreter still runs what it
// compiled before.
func TestRelease(t *testing.T) {
	ip := interp.New(interp.Options{})
	if _, err := ip.Eval("func twice(x int) int { return 2 * x }"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := ip.Eval("_ = twice(1)"); err != nil {
			t.Fatal(err)
		}
	}
	v := reflect.ValueOf(ip).Elem()
	if n := v.FieldByName("roots").Len(); n == 0 {
		t.Fatal("yaegi kept no roots: this test shows nothing")
	}
	Release(ip)
	if n := v.FieldByName("roots").Len(); n != 0 {
		t.Errorf("%d roots left", n)
	}
	if n := v.FieldByName("scopes").MapIndex(reflect.ValueOf("main")).Elem().FieldByName("child").Len(); n != 0 {
		t.Errorf("%d block scopes left in package main's scope", n)
	}
	got, err := ip.Eval("twice(21)")
	if err != nil || got.Int() != 42 {
		t.Errorf("after Release: twice(21) = %v, %v", got, err)
	}
}
