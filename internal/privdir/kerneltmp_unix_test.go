//go:build unix

package privdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSweepKernelTemps: a kernel killed before it removed its temporary
// directory leaves it; the next kernel removes it — and only it: never a
// running kernel's, nor anything else in the temporary directory.
func TestSweepKernelTemps(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	name := func(pid int) string {
		p, err := KernelTemp(pid)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(p) != tmp || !strings.HasPrefix(filepath.Base(p), "tick-kernel-"+strconv.Itoa(pid)+"-") {
			t.Fatalf("KernelTemp(%d) = %s", pid, p)
		}
		return p
	}
	deadPid := strconv.Itoa(dead.Process.Pid)
	gone := []string{name(dead.Process.Pid), filepath.Join(tmp, "tick-kernel-123456789"),
		filepath.Join(tmp, "tick-graphviz-"+deadPid+"-123"), filepath.Join(tmp, "tick-kernels-"+deadPid+"-456")}
	kept := []string{name(os.Getppid()), name(os.Getpid()), filepath.Join(tmp, "tick-kernel-987654321"), filepath.Join(tmp, "tick-kernels-x"),
		filepath.Join(tmp, "tick-graphviz-"+strconv.Itoa(os.Getppid())+"-1"), filepath.Join(tmp, "tick-graphviz-1234"), filepath.Join(tmp, "other-"+deadPid+"-1")}
	for _, d := range append(append([]string{}, gone...), kept...) {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// the dead kernel's fallback holds files; an old-format one in use is not empty
	if err := os.MkdirAll(filepath.Join(gone[0], "tick-kernels-1", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kept[2], "in-use"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := SweepKernelTemps(); n != len(gone) {
		t.Errorf("SweepKernelTemps removed %d directories, want %d", n, len(gone))
	}
	for _, d := range gone {
		if _, err := os.Lstat(d); err == nil {
			t.Errorf("%s is left behind", d)
		}
	}
	for _, d := range kept {
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
