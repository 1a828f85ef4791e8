package native

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func TestCompileAndCall(t *testing.T) {
	c := newCompiler(t, t.TempDir())
	lib, err := c.Compile(affineSrc, "affine")
	if err != nil {
		t.Fatal(err)
	}
	if lib.Origin != FromCompiler {
		t.Errorf("first compile origin = %v, want compiled", lib.Origin)
	}
	k, err := lib.Kernel("affine")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 7, 1000, 1 << 20} {
		if err := checkAffine(k, n); err != nil {
			t.Errorf("n=%d: %v", n, err)
		}
	}
}

// A partial range touches only [start, end); pinned Go memory is accepted.
func TestCallRangeOnPinnedGoMemory(t *testing.T) {
	c := newCompiler(t, t.TempDir())
	lib, err := c.Compile(affineSrc, "affine")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := lib.Kernel("affine")
	a := make([]float32, 100)
	out := make([]float32, 100)
	for i := range a {
		a[i], out[i] = float32(i), -7
	}
	var pin runtime.Pinner
	pin.Pin(&a[0])
	pin.Pin(&out[0])
	defer pin.Unpin()
	k.Call([]unsafe.Pointer{unsafe.Pointer(&out[0]), unsafe.Pointer(&a[0])}, 10, 90)
	for i, v := range out {
		want := float32(-7)
		if i >= 10 && i < 90 {
			want = a[i]*2 + 1
		}
		if v != want {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}
}

func TestChunks(t *testing.T) {
	tests := []struct {
		n       int64
		work    float64
		workers int
		parts   int
	}{
		{0, 1, 4, 0},
		{1, 1, 4, 1},
		{Grain - 1, 1, 4, 1},
		{4 * Grain, 1, 4, 4},
		{4 * Grain, 1, 2, 2},
		{Grain, 8, 8, 8},
		{100, 1e9, 8, 1}, // tiny index space: never split below the alignment
		{1<<20 + 3, 1, 3, 3},
	}
	for _, tt := range tests {
		got := Chunks(tt.n, tt.work, tt.workers)
		if len(got) != tt.parts {
			t.Errorf("Chunks(%d, %v, %d) = %d parts, want %d", tt.n, tt.work, tt.workers, len(got), tt.parts)
		}
		next := int64(0)
		for i, c := range got {
			if c[0] != next || c[1] <= c[0] || (i < len(got)-1 && c[1]%align != 0) {
				t.Errorf("Chunks(%d, %v, %d): bad part %d %v", tt.n, tt.work, tt.workers, i, c)
			}
			next = c[1]
		}
		if tt.n > 0 && next != tt.n {
			t.Errorf("Chunks(%d, %v, %d) covers [0,%d)", tt.n, tt.work, tt.workers, next)
		}
	}
}

func TestMemoryHitAndConcurrentCompileOnce(t *testing.T) {
	c := newCompiler(t, t.TempDir())
	src := affineSrc + "// concurrent\n"
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Compile(src, "affine")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	lib, err := c.Compile(src, "affine")
	if err != nil {
		t.Fatal(err)
	}
	s := c.Stats()
	if lib.Origin != FromMemory || s.Compiles != 1 || s.MemoryHits != 8 || s.DiskHits != 0 {
		t.Errorf("origin %v, stats %+v; want memory hit, 1 compile, 8 memory hits", lib.Origin, s)
	}
	if s.CompileTime <= 0 {
		t.Errorf("compile time not recorded: %+v", s)
	}
}

func TestSecondProcessFindsDiskCache(t *testing.T) {
	root := t.TempDir()
	c := newCompiler(t, filepath.Join(root, "kernels")) // the layout Default uses under TICK_CACHE_DIR
	if _, err := c.Compile(affineSrc, "affine"); err != nil {
		t.Fatal(err)
	}
	r := runHelper(t, helperCmd(t, root))
	if r.Origin != FromDisk.String() || r.Compiles != 0 || r.DiskHits != 1 {
		t.Errorf("second process: %+v; want a disk hit and no compile", r)
	}
}

func TestCorruptEntryIsRebuilt(t *testing.T) {
	corruptions := []struct {
		name string
		fn   func(data []byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"truncated", func(d []byte) []byte { return d[:len(d)/2] }},
		{"trailer only", func(d []byte) []byte { return d[len(d)-trailerSize:] }},
		{"flipped byte", func(d []byte) []byte { d[len(d)/3] ^= 0xff; return d }},
		{"garbage", func(d []byte) []byte { return []byte(strings.Repeat("not an ELF object ", len(d)/18)) }},
		// The checksum matches but the loader refuses it: dlopen fails, rebuild.
		{"sealed garbage", func(d []byte) []byte {
			g := []byte(strings.Repeat("junk", 1000))
			return append(g, trailer(g)...)
		}},
	}
	newCompiler(t, t.TempDir()) // skip when unavailable
	for _, tc := range corruptions {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			// Build the entry in another process: a path this process has
			// dlopen-ed would be answered from the loader's own list.
			runHelper(t, helperCmd(t, root))
			c := newCompiler(t, filepath.Join(root, "kernels"))
			path := filepath.Join(c.CacheDir(), c.Key(affineSrc)+".so")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.fn(data), 0o644); err != nil {
				t.Fatal(err)
			}
			lib, err := c.Compile(affineSrc, "affine")
			if err != nil {
				t.Fatal(err)
			}
			if s := c.Stats(); lib.Origin != FromCompiler || s.Rebuilds != 1 || s.Compiles != 1 {
				t.Errorf("origin %v stats %+v; want a rebuild", lib.Origin, s)
			}
			k, _ := lib.Kernel("affine")
			if err := checkAffine(k, 333); err != nil {
				t.Error(err)
			}
			if verifyObject(path) != objectOK {
				t.Error("rebuilt entry does not verify")
			}
		})
	}
}

func TestConcurrentProcessesCompileSameSource(t *testing.T) {
	newCompiler(t, t.TempDir()) // skip when unavailable
	root := t.TempDir()
	const procs = 3
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	for i := range cmds {
		cmds[i] = helperCmd(t, root)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i].String())
		}
	}
	entries, _ := filepath.Glob(filepath.Join(root, "kernels", "*"))
	if len(entries) != 1 || verifyObject(entries[0]) != objectOK {
		t.Errorf("cache holds %v; want one verified object and no temp files", entries)
	}
}

func TestCompileErrorNamesKernel(t *testing.T) {
	c := newCompiler(t, t.TempDir())
	bad := "#include <stdint.h>\nvoid broken(void **bufs, int64_t s, int64_t e) { undeclared_thing = 1; }\n"
	_, err := c.Compile(bad, "broken")
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want *CompileError", err, err)
	}
	if !strings.Contains(err.Error(), "broken") || !strings.Contains(err.Error(), "undeclared_thing") {
		t.Errorf("error does not name the kernel and show the compiler's message:\n%v", err)
	}
	if ce.Source != bad {
		t.Error("CompileError.Source is not the source")
	}
	if s := c.Stats(); s.Failures != 1 || s.Compiles != 0 {
		t.Errorf("stats %+v; want 1 failure", s)
	}
	if _, err := c.Compile(affineSrc, "affine"); err != nil {
		t.Errorf("compiler unusable after an error: %v", err)
	}
}

func TestMissingSymbol(t *testing.T) {
	c := newCompiler(t, t.TempDir())
	_, err := c.Compile(affineSrc, "nope")
	var me *MissingSymbolError
	if !errors.As(err, &me) || me.Symbol != "nope" {
		t.Fatalf("error %v, want *MissingSymbolError for nope", err)
	}
}

func TestUnavailableCompiler(t *testing.T) {
	_, err := NewCompiler(Options{CC: "/nonexistent/tick-cc"})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("error %v, want ErrUnavailable", err)
	}
	var ue *UnavailableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "GO backend") {
		t.Errorf("error %q should be an *UnavailableError naming the fallback", err)
	}
}

func TestPlanRunsStepsAndSwapsBuffers(t *testing.T) {
	k := affineKernel(t)
	const n = 256
	bufs := allocBufs(t, 4, n)
	f := func(i int) []float32 { return unsafe.Slice((*float32)(bufs[i]), n) }
	for i := range n {
		f(0)[i], f(3)[i] = float32(i), float32(-i)
	}
	var p Plan
	defer p.Free()
	p.Add(k, []unsafe.Pointer{bufs[1], bufs[0]}, 0, n) // b1 = 2*b0+1
	p.Add(k, []unsafe.Pointer{bufs[2], bufs[1]}, 0, n) // b2 = 2*b1+1
	check := func(in []float32) {
		t.Helper()
		for i := range n {
			if want := (in[i]*2+1)*2 + 1; f(2)[i] != want {
				t.Fatalf("b2[%d] = %v, want %v", i, f(2)[i], want)
			}
		}
	}
	if err := p.Run(); err != nil {
		t.Fatal(err)
	}
	check(f(0))
	p.SetBuf(0, 1, bufs[3]) // replay with a new input
	if err := p.Run(); err != nil {
		t.Fatal(err)
	}
	check(f(3))
}

func TestBatchRunsCallsInOrder(t *testing.T) {
	k := affineKernel(t)
	const n = 100
	bufs := allocBufs(t, 3, n)
	f := func(i int) []float32 { return unsafe.Slice((*float32)(bufs[i]), n) }
	for i := range n {
		f(0)[i], f(2)[i] = float32(i), -1
	}
	var b Batch
	defer b.Free()
	for round := range 2 { // a reused batch gives the same result, timed or not
		b.Reset()
		for j := range 40 { // past the initial capacity: growth keeps earlier calls
			b.Add(k, []unsafe.Pointer{bufs[1], bufs[0]}, 0, int64(j%n+1))
		}
		b.Add(k, []unsafe.Pointer{bufs[1], bufs[0]}, 0, n)  // b1 = 2*b0+1
		b.Add(k, []unsafe.Pointer{bufs[2], bufs[1]}, 10, n) // b2[10:] = 2*b1+1
		b.Add(k, []unsafe.Pointer{bufs[2], bufs[1]}, 5, 5)  // empty: skipped
		if b.Len() != 42 {
			t.Fatalf("round %d: Len() = %d, want 42", round, b.Len())
		}
		if round == 0 {
			b.Run()
		} else {
			elapsed := make([]int64, b.Len())
			b.RunTimed(elapsed)
			for i, e := range elapsed {
				if e < 0 || i > 0 && e < elapsed[i-1] {
					t.Fatalf("RunTimed: elapsed %v: call %d ends before call %d", elapsed, i, i-1)
				}
			}
		}
		for i := range n {
			want := float32(-1)
			if i >= 10 {
				want = (float32(i)*2+1)*2 + 1
			}
			if f(2)[i] != want {
				t.Fatalf("round %d: b2[%d] = %v, want %v", round, i, f(2)[i], want)
			}
		}
	}
}

func TestVectorISAFromMacros(t *testing.T) {
	tests := []struct {
		defs []string
		want VectorISA
	}{
		{[]string{"__SSE2__", "__AVX__", "__AVX2__", "__FMA__", "__AVX512F__"}, VectorISA{"AVX-512", 64, true}},
		{[]string{"__SSE2__", "__AVX__", "__AVX2__", "__FMA__"}, VectorISA{"AVX2+FMA", 32, true}},
		{[]string{"__SSE2__", "__AVX__", "__AVX2__"}, VectorISA{"AVX2", 32, false}},
		{[]string{"__SSE2__", "__AVX__"}, VectorISA{"AVX", 32, false}},
		{[]string{"__SSE2__"}, VectorISA{"SSE2", 16, false}},
		{[]string{"__ARM_NEON", "__aarch64__", "__ARM_FEATURE_FMA"}, VectorISA{"NEON", 16, true}},
		{[]string{"__ARM_NEON"}, VectorISA{"NEON", 16, false}},
		{nil, VectorISA{"scalar", 8, false}},
	}
	for _, tt := range tests {
		defs := map[string]bool{}
		for _, d := range tt.defs {
			defs[d] = true
		}
		if got := isaFromMacros(defs); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.defs, got, tt.want)
		}
	}
	if got := (VectorISA{"AVX2+FMA", 32, true}).String(); got != "AVX2+FMA, 32-byte vectors" {
		t.Errorf("String() = %q", got)
	}
}

// The ISA follows the -march flag the compiler is given (preprocessing
// only: no code for that target runs).
func TestVectorISAFollowsTarget(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("x86-64 targets")
	}
	for march, want := range map[string]VectorISA{"x86-64": {"SSE2", 16, false}, "x86-64-v3": {"AVX2+FMA", 32, true}, "skylake-avx512": {"AVX-512", 64, true}} {
		flags := DefaultFlags()
		for i, f := range flags {
			if strings.HasPrefix(f, "-march=") {
				flags[i] = "-march=" + march
			}
		}
		c, err := NewCompiler(Options{Flags: flags, CacheDir: t.TempDir()})
		if err != nil {
			t.Skip(err)
		}
		if got := c.VectorISA(); got != want {
			t.Errorf("-march=%s: %v, want %v", march, got, want)
		}
	}
	t.Setenv(EnvMarch, "x86-64-v3")
	if f := strings.Join(DefaultFlags(), " "); !strings.Contains(f, "-march=x86-64-v3") || strings.Contains(f, "native") {
		t.Errorf("%s=x86-64-v3: flags %s", EnvMarch, f)
	}
}
