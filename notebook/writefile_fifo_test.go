//go:build unix

package notebook

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// `tick run NB -o /dev/null` wrote a temporary file and renamed it over
// the device node (as root /dev/null became a regular file). A path that
// is not a regular file is written in place: here a FIFO, which must still
// be a FIFO afterwards and deliver what was written.
func TestWriteFileIntoANonRegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteFile(p, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "cells"); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "cells" {
		t.Errorf("the reader got %q", s)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}
