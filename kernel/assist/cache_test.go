package assist

import (
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiskCache: the standard library's types written by one process are
// read by the next (a new loader on the same directory), one package at
// a time, with one *types.Package per path, and answer the same.
func TestDiskCache(t *testing.T) {
	dir := t.TempDir()
	first := New(&fakeScope{}, Options{Packages: testPackages, CacheDir: dir})
	first.imp.checked = nil // the test writes the cache itself, before the directory goes
	want := first.Complete("time.Now().Uni", 14)
	for _, p := range []string{"fmt", "bytes", "io", "time", "tick/runtime/tensor"} {
		first.imp.Import(p)
	}
	first.writeCache()
	files, _ := filepath.Glob(filepath.Join(first.imp.cache, "*.types"))
	if len(files) < 10 {
		t.Fatalf("cache holds %d files, want the packages fmt and time need", len(files))
	}

	loadersMu.Lock()
	delete(loaders, [2]string{tickSource(), dir})
	loadersMu.Unlock()
	second := New(&fakeScope{}, Options{Packages: testPackages, CacheDir: dir})
	second.imp.checked = nil
	got := second.Complete("time.Now().Uni", 14)
	second.imp.Import("tick/runtime/tensor")
	if len(got.Matches) == 0 || len(got.Matches) != len(want.Matches) {
		t.Errorf("from the cache: %v, from source: %v", texts(got.Matches), texts(want.Matches))
	}
	fmtPkg, _ := second.imp.Import("fmt")
	io, _ := second.imp.Import("io")
	fprint := fmtPkg.Scope().Lookup("Fprint").Type().(*types.Signature)
	if fprint.Params().At(0).Type() != io.Scope().Lookup("Writer").Type() {
		t.Errorf("fmt.Fprint's io.Writer is not package io's: two packages io")
	}
	if p, _ := second.imp.loaded("time"); p == nil || p.source {
		t.Errorf("time was checked from source, not read from the cache")
	}
	// tick's own packages are cached too, stamped with their source files.
	if p, _ := second.imp.loaded(Module + "/runtime/tensor"); first.imp.tick != "" && (p == nil || p.source) {
		t.Errorf("tick/runtime/tensor was checked from source, not read from the cache")
	}
	if h := second.Inspect("fmt.Println", 6, 0); !h.Found || !contains(h.Text, "Println formats") {
		t.Errorf("docs with cached types: %q", h.Text)
	}
	// A cache file that does not read is ignored.
	if err := os.WriteFile(filepath.Join(second.imp.cache, cacheName("encoding/xml")), []byte("x\ngarbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := second.Complete("xml.Unmarsh", 11); len(c.Matches) != 4 {
		t.Errorf("with a broken cache file: %v", texts(c.Matches))
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
