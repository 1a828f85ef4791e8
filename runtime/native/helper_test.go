package native

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"unsafe"
)

// The test binary doubles as a second process: with helperEnv set, TestMain
// compiles affineSrc with the Default compiler (so TICK_CACHE_DIR is honoured),
// checks the kernel's output, prints a helperReport as JSON and exits.
const helperEnv = "TICK_NATIVE_TEST_HELPER"

const affineSrc = `#include <stdint.h>
void affine(void **bufs, int64_t start, int64_t end) {
	float *restrict out = bufs[0];
	const float *restrict a = bufs[1];
	for (int64_t i = start; i < end; i++) out[i] = a[i] * 2.0f + 1.0f;
}
`

type helperReport struct {
	Origin   string
	Compiles int64
	DiskHits int64
	Rebuilds int64
}

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		if err := helperMain(); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helperMain() error {
	lib, err := Compile(affineSrc, "affine")
	if err != nil {
		return err
	}
	k, err := lib.Kernel("affine")
	if err != nil {
		return err
	}
	if err := checkAffine(k, 1000); err != nil {
		return err
	}
	c, _ := Default()
	s := c.Stats()
	return json.NewEncoder(os.Stdout).Encode(helperReport{
		Origin: lib.Origin.String(), Compiles: s.Compiles, DiskHits: s.DiskHits, Rebuilds: s.Rebuilds,
	})
}

// checkAffine runs k over n float32 in C memory and checks out = a*2+1.
func checkAffine(k *Kernel, n int) error {
	out, in, err := allocPair(n)
	if err != nil {
		return err
	}
	defer Free(out)
	defer Free(in)
	a := unsafe.Slice((*float32)(in), n)
	o := unsafe.Slice((*float32)(out), n)
	for i := range a {
		a[i] = float32(i) - 3.5
		o[i] = -1
	}
	k.Launch([]unsafe.Pointer{out, in}, int64(n), 2)
	for i := range o {
		if want := a[i]*2 + 1; o[i] != want {
			return fmt.Errorf("out[%d] = %v, want %v", i, o[i], want)
		}
	}
	return nil
}

func allocPair(n int) (out, in unsafe.Pointer, err error) {
	if out, err = Alloc(4 * n); err != nil {
		return nil, nil, err
	}
	if in, err = Alloc(4 * n); err != nil {
		Free(out)
		return nil, nil, err
	}
	return out, in, nil
}

// helperCmd returns a command running this test binary as a helper process
// that uses cacheRoot as TICK_CACHE_DIR.
func helperCmd(t testing.TB, cacheRoot string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", EnvCacheDir+"="+cacheRoot)
	return cmd
}

func runHelper(t testing.TB, cmd *exec.Cmd) helperReport {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("helper process failed: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("helper process: %v", err)
	}
	var r helperReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	return r
}

// newCompiler returns a Compiler caching under a fresh directory, or skips
// the test when this build or machine cannot compile C (saying why).
func newCompiler(t testing.TB, dir string) *Compiler {
	t.Helper()
	c, err := NewCompiler(Options{CacheDir: dir})
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// affineKernel compiles affineSrc with a fresh compiler over a temporary
// cache and returns its kernel.
func affineKernel(t testing.TB) *Kernel {
	t.Helper()
	lib, err := newCompiler(t, t.TempDir()).Compile(affineSrc, "affine")
	if err != nil {
		t.Fatal(err)
	}
	k, err := lib.Kernel("affine")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// allocBufs allocates count C buffers of n float32s, freed when t ends.
func allocBufs(t testing.TB, count, n int) []unsafe.Pointer {
	t.Helper()
	bufs := make([]unsafe.Pointer, count)
	for i := range bufs {
		p, err := Alloc(4 * n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { Free(p) })
		bufs[i] = p
	}
	return bufs
}
