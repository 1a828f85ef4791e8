package gocompile

import (
	"context"
	"os"
	"reflect"
	"testing"
)

// testBuilder is shared by the tests of this package: one session module,
// one cache (a temporary directory), one warm go build cache.
var testBuilder *Builder

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gocompile-test-")
	if err != nil {
		panic(err)
	}
	testBuilder = New(Config{CacheDir: dir})
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needPlugins skips tests that build plugins where this binary cannot
// load them.
func needPlugins(t *testing.T) *Builder {
	t.Helper()
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	if raceEnabled {
		t.Skip("plugin builds are not run under the race detector: they would rebuild the standard library in race mode")
	}
	if err := testBuilder.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	return testBuilder
}

func TestImportUUID(t *testing.T) {
	b := needPlugins(t)
	var events []Event
	pkg, changed, err := b.Import(context.Background(), "github.com/google/uuid", func(e Event) { events = append(events, e) })
	if err != nil {
		t.Fatal(err)
	}
	if !changed || pkg.Name != "uuid" || pkg.Version != "v1.6.0" {
		t.Fatalf("got %+v changed=%v", pkg, changed)
	}
	fn, ok := pkg.Symbols["github.com/google/uuid/uuid"]["NewString"]
	if !ok {
		t.Fatalf("no NewString in %v", sortedKeys(pkg.Symbols))
	}
	s := fn.Call(nil)[0].String()
	if len(s) != 36 {
		t.Fatalf("uuid.NewString() = %q", s)
	}
	t.Logf("%d events, took %v, cached %v", len(events), pkg.Took, pkg.Cached)
	again, changed, err := b.Import(context.Background(), "github.com/google/uuid", nil)
	if err != nil || changed || again != pkg {
		t.Fatalf("second import: %v %v %v", again, changed, err)
	}
}

func valuesOf(xs ...any) []reflect.Value {
	out := make([]reflect.Value, len(xs))
	for i, x := range xs {
		out[i] = reflect.ValueOf(x)
	}
	return out
}
