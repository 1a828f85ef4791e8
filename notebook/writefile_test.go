//go:build unix

package notebook

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileHonoursUmaskAndInputMode: tick run forced its outputs to
// 0644 whatever the umask and the input's mode (a private 0600 notebook
// became readable by everyone).
func TestWriteFileHonoursUmaskAndInputMode(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name     string
		existing os.FileMode // 0: no file yet
		perm     os.FileMode
		want     os.FileMode
	}{
		{"private input", 0, 0o600, 0o600},
		{"umask filters", 0, 0o666, 0o640},
		{"existing output keeps its mode", 0o604, 0o600, 0o604},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".ipynb")
			if tc.existing != 0 {
				if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tc.existing); err != nil {
					t.Fatal(err)
				}
			}
			err := WriteFile(path, tc.perm, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("content %q", b)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("%d files left in the directory, want 3 (no temporary files)", len(entries))
	}
}
