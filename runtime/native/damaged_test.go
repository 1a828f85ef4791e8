package native

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirectoryInPlaceOfAnEntryIsRebuilt: a cache entry replaced by a
// directory was never rebuilt (the new object could not be renamed over
// it, and every compile of that kernel failed). It is replaced now
// (internal/privdir.Replace).
func TestDirectoryInPlaceOfAnEntryIsRebuilt(t *testing.T) {
	c := newCompiler(t, filepath.Join(t.TempDir(), "kernels"))
	path := filepath.Join(c.CacheDir(), c.Key(affineSrc)+".so")
	if err := os.MkdirAll(filepath.Join(path, "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	lib, err := c.Compile(affineSrc, "affine")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := lib.Kernel("affine")
	if err := checkAffine(k, 333); err != nil {
		t.Error(err)
	}
	if verifyObject(path) != objectOK {
		t.Error("the entry was not rebuilt in place of the directory")
	}
}
