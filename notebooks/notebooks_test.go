package notebooks

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Every tutorial notebook in the directory is built in (tick warm runs
// them), and nothing else.
func TestEmbedded(t *testing.T) {
	onDisk, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := fs.Glob(Files, "*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(onDisk) < 7 || !slices.Equal(onDisk, embedded) {
		t.Errorf("embedded %v, the directory has %v", embedded, onDisk)
	}
	for _, name := range embedded {
		a, _ := Files.ReadFile(name)
		b, _ := os.ReadFile(name)
		if string(a) != string(b) {
			t.Errorf("%s: the embedded copy differs", name)
		}
	}
}
