package native

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

// Environment variables read by Default.
const (
	EnvCC       = "CC"             // C compiler command (may carry arguments, e.g. "clang -m64")
	EnvCacheDir = "TICK_CACHE_DIR" // overrides the kernel cache root (tests use a temp dir)
	// EnvMarch replaces -march=native in DefaultFlags, e.g. TICK_MARCH=x86-64-v3
	// builds AVX2 kernels on an AVX-512 machine (benchmarks of another CPU class).
	EnvMarch = "TICK_MARCH"
)

// DefaultFlags returns the flags kernels are compiled with: optimised for the
// host CPU, position independent, shared. Floating-point contraction (FMA) is
// off so results match the GO backend bit for bit where IEEE allows; errno is
// not set by math functions (results are unchanged, loops can vectorize);
// signed integer overflow wraps, as in Go (-fwrapv). Floating-point
// operations are assumed not to trap (-fno-trapping-math): kernels never
// read the exception flags, and it lets the compiler turn selects (relu,
// where, max) into vector blends with the same IEEE results, NaN, signed
// zeros and infinities included (runtime/backend/cpu/cpu_test.go checks them).
// Nothing like -ffast-math that changes numerical results is used.
// $TICK_MARCH, when set, replaces -march=native.
func DefaultFlags() []string {
	march := "native"
	if m := strings.TrimSpace(os.Getenv(EnvMarch)); m != "" {
		march = m
	}
	return []string{"-O3", "-march=" + march, "-fPIC", "-shared", "-std=gnu11",
		"-ffp-contract=off", "-fno-math-errno", "-fno-trapping-math", "-fwrapv", "-fno-semantic-interposition"}
}

// linkLibs are linked into every object, after the source (libm: kernels
// call expf, tanhf, ...).
var linkLibs = []string{"-lm"}

// Options configure a Compiler. The zero value means: $CC else cc,
// DefaultFlags, cache under $TICK_CACHE_DIR else the user cache dir.
type Options struct {
	CC       string   // compiler command; may include arguments
	Flags    []string // compile flags; nil means DefaultFlags()
	CacheDir string   // directory of cached objects; "" means the default location
}

// Compiler compiles C translation units into loaded libraries, with a
// per-process memory cache and a disk cache shared between processes. It is
// safe for concurrent use; concurrent Compile calls for one source compile it
// once.
type Compiler struct {
	path     string   // compiler executable
	preArgs  []string // arguments that came with CC
	flags    []string
	identity string // compiler version + target + host CPU, part of every key
	cacheDir string
	// cacheProblem is why the configured cache directory was refused
	// (an *UnsafeCacheError), nil when it is in use.
	cacheProblem error

	mu   sync.Mutex
	libs map[string]*entry // key → library (or compile in flight)

	isaOnce sync.Once
	isa     VectorISA

	compiles, failures, memHits, diskHits, rebuilds atomic.Int64
	compileNS, loadNS                               atomic.Int64
}

type entry struct {
	done chan struct{} // closed when lib/err are set
	lib  *Library
	err  error
}

// NewCompiler finds the C compiler and records its identity. Without cgo, or
// when the compiler cannot be run, it returns an *UnavailableError.
func NewCompiler(opts Options) (*Compiler, error) {
	if err := cgoAvailable(); err != nil {
		return nil, err
	}
	cmd := opts.CC
	if cmd == "" {
		cmd = os.Getenv(EnvCC)
	}
	if strings.TrimSpace(cmd) == "" {
		cmd = "cc"
	}
	fields := strings.Fields(cmd)
	path, err := exec.LookPath(fields[0])
	if err != nil {
		return nil, &UnavailableError{
			Reason: fmt.Sprintf("no C compiler: %q is not on PATH (install gcc or clang, or set CC)", fields[0]),
			Err:    err,
		}
	}
	c := &Compiler{path: path, preArgs: fields[1:], flags: opts.Flags, libs: map[string]*entry{}}
	if c.flags == nil {
		c.flags = DefaultFlags()
	}
	if c.identity, err = c.identify(); err != nil {
		return nil, &UnavailableError{
			Reason: fmt.Sprintf("the C compiler %s does not run (check CC, or install gcc or clang)", path),
			Err:    err,
		}
	}
	dir := opts.CacheDir
	if dir == "" {
		dir = defaultCacheDir()
	}
	if c.cacheDir, c.cacheProblem = secureCacheDir(dir); c.cacheDir == "" {
		return nil, &UnavailableError{Reason: "no safe directory for compiled kernels", Err: c.cacheProblem}
	}
	return c, nil
}

// identify runs the compiler for its version line and target triple and adds
// a fingerprint of the host CPU, since -march=native objects are not portable.
func (c *Compiler) identify() (string, error) {
	run := func(arg string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, c.path, append(c.preArgs[:len(c.preArgs):len(c.preArgs)], arg)...).Output()
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", c.path, arg, err)
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return line, nil
	}
	version, err := run("--version")
	if err != nil {
		return "", err
	}
	target, err := run("-dumpmachine")
	if err != nil {
		return "", err
	}
	return version + " | target " + target + " | cpu " + cpuFingerprint(), nil
}

// cpuFingerprint identifies the host CPU model and features (Linux); other
// systems fall back to the architecture name.
func cpuFingerprint() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	var model, flags string
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		case "flags", "Features":
			if flags == "" {
				flags = strings.TrimSpace(v)
			}
		}
	}
	sum := sha256.Sum256([]byte(flags))
	return fmt.Sprintf("%s %s %s", runtime.GOARCH, model, hex.EncodeToString(sum[:6]))
}

func defaultCacheDir() string {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return filepath.Join(d, "kernels")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "tick", "kernels")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("tick-%d", os.Getuid()), "kernels")
}

// Version is the first line the compiler prints for --version, for example
// "cc (Debian 12.2.0-14+deb12u1) 12.2.0": provenance records it beside the
// flags, since two compilers given the same flags build different code.
func (c *Compiler) Version() string {
	v, _, _ := strings.Cut(c.identity, " | target ")
	return v
}

// Path is the compiler executable.
func (c *Compiler) Path() string { return c.path }

// Flags returns a copy of the compile flags.
func (c *Compiler) Flags() []string { return append([]string(nil), c.flags...) }

// CacheDir is the directory holding cached objects.
func (c *Compiler) CacheDir() string { return c.cacheDir }

// CacheProblem reports why the configured cache directory was refused for
// a private temporary one (nil when the cache is in use).
func (c *Compiler) CacheProblem() error { return c.cacheProblem }

// Key is the cache key of src: a hash of the source, compiler identity and flags.
func (c *Compiler) Key(src string) string {
	h := sha256.New()
	for _, part := range []string{c.identity, strings.Join(c.preArgs, " "), strings.Join(c.flags, " "), strings.Join(linkLibs, " "), src} {
		fmt.Fprintf(h, "%d:%s\x00", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Stats returns a snapshot of the counters.
func (c *Compiler) Stats() Stats {
	return Stats{
		Compiles:    c.compiles.Load(),
		Failures:    c.failures.Load(),
		MemoryHits:  c.memHits.Load(),
		DiskHits:    c.diskHits.Load(),
		Rebuilds:    c.rebuilds.Load(),
		CompileTime: time.Duration(c.compileNS.Load()),
		LoadTime:    time.Duration(c.loadNS.Load()),
	}
}

// Compile returns a loaded library built from src that defines the named
// kernel symbols: from this process's cache, else from the disk cache, else
// by running the compiler. A compiler failure is a *CompileError.
func (c *Compiler) Compile(src string, symbols ...string) (*Library, error) {
	key := c.Key(src)
	c.mu.Lock()
	if e, ok := c.libs[key]; ok {
		c.mu.Unlock()
		<-e.done
		if e.err != nil {
			return nil, e.err
		}
		c.memHits.Add(1)
		if err := e.lib.resolve(symbols); err != nil {
			return nil, err
		}
		hit := *e.lib
		hit.Origin = FromMemory
		return &hit, nil
	}
	e := &entry{done: make(chan struct{})}
	c.libs[key] = e
	c.mu.Unlock()

	e.lib, e.err = c.load(key, src, symbols)
	if e.err != nil {
		c.mu.Lock()
		delete(c.libs, key) // a later call may retry (e.g. after a transient I/O error)
		c.mu.Unlock()
	}
	close(e.done)
	return e.lib, e.err
}

// load finds key on disk (verified) or builds it, then dlopens it.
func (c *Compiler) load(key, src string, symbols []string) (*Library, error) {
	name := kernelName(symbols)
	path := filepath.Join(c.cacheDir, key+".so")
	start := time.Now()
	state := verifyObject(path)
	if state == objectOK {
		lib, err := c.open(path, key, src, FromDisk, symbols)
		c.loadNS.Add(int64(time.Since(start)))
		if err == nil {
			c.diskHits.Add(1)
			return lib, nil
		}
		var missing *MissingSymbolError
		if errors.As(err, &missing) {
			return nil, err
		}
		state = objectBad // verified but unloadable: rebuild
	}
	if state == objectBad {
		c.rebuilds.Add(1)
	}
	built, err := c.build(key, src, name)
	if err != nil {
		return nil, err
	}
	start = time.Now()
	lib, err := c.open(built, key, src, FromCompiler, symbols)
	c.loadNS.Add(int64(time.Since(start)))
	return lib, err
}

func (c *Compiler) open(path, key, src string, origin Origin, symbols []string) (*Library, error) {
	h, err := dlOpen(path)
	if err != nil {
		return nil, err
	}
	lib := &Library{Key: key, Path: path, Source: src, Origin: origin, handle: h, mu: &sync.Mutex{}, kernels: map[string]*Kernel{}}
	if err := lib.resolve(symbols); err != nil {
		return nil, err
	}
	return lib, nil
}

// build compiles src into the cache directory (or a private temp directory
// when the cache is not writable) and returns the object's path. The object
// is written under a temporary name, sealed with a checksum trailer and
// renamed into place, so concurrent processes never see a partial file.
func (c *Compiler) build(key, src, name string) (string, error) {
	dir := c.cacheDir
	if err := privdir.Ensure(dir); err != nil {
		if dir, err = privdir.Private("tick-kernels-"); err != nil {
			return "", fmt.Errorf("native: no writable directory for kernel %s: %w", name, err)
		}
	}
	srcFile, err := os.CreateTemp(dir, key+".*.c")
	if err != nil {
		return "", fmt.Errorf("native: writing source of kernel %s: %w", name, err)
	}
	defer os.Remove(srcFile.Name())
	_, werr := srcFile.WriteString(src)
	if cerr := srcFile.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", fmt.Errorf("native: writing source of kernel %s: %w", name, werr)
	}
	tmp := strings.TrimSuffix(srcFile.Name(), ".c") + ".so.tmp"
	defer os.Remove(tmp) // no-op after a successful rename

	args := append(append(append([]string(nil), c.preArgs...), c.flags...), "-o", tmp, srcFile.Name())
	args = append(args, linkLibs...)
	var stderr bytes.Buffer
	cmd := exec.Command(c.path, args...)
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	start := time.Now()
	err = cmd.Run()
	c.compileNS.Add(int64(time.Since(start)))
	if err != nil {
		c.failures.Add(1)
		return "", &CompileError{Kernel: name, Compiler: c.path, Args: args, Stderr: stderr.String(), Source: src, Err: err}
	}
	c.compiles.Add(1)
	if err := sealObject(tmp); err != nil {
		return "", fmt.Errorf("native: sealing object of kernel %s: %w", name, err)
	}
	final := filepath.Join(dir, key+".so")
	if err := privdir.Replace(tmp, final); err != nil { // a damaged entry (a directory) is replaced too
		return "", fmt.Errorf("native: installing object of kernel %s: %w", name, err)
	}
	return final, nil
}

func kernelName(symbols []string) string {
	if len(symbols) == 0 {
		return "(unnamed)"
	}
	return strings.Join(symbols, ",")
}

// The process-wide default compiler, created on first use from the
// environment: one per process, so every caller shares one memory cache.
var (
	defaultOnce sync.Once
	defaultC    *Compiler
	defaultErr  error
)

// Default returns the process-wide Compiler configured from CC and
// TICK_CACHE_DIR, or the *UnavailableError saying why there is none.
func Default() (*Compiler, error) {
	defaultOnce.Do(func() { defaultC, defaultErr = NewCompiler(Options{}) })
	return defaultC, defaultErr
}

// Compile compiles src with the Default compiler; see Compiler.Compile.
func Compile(src string, symbols ...string) (*Library, error) {
	c, err := Default()
	if err != nil {
		return nil, err
	}
	return c.Compile(src, symbols...)
}

// Available reports nil when C kernels can be compiled and called here, else
// the *UnavailableError saying why.
func Available() error {
	_, err := Default()
	return err
}
