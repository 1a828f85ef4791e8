// Package gocompile compiles Go with the real Go toolchain for a running
// tick and loads it: imported modules and %%go cells become Go plugins
// whose yaegi symbol tables the session registers with
// Interpreter.Use, so interpreted cells call compiled code.
//
// A plugin can only be loaded by a binary whose shared packages it
// matches exactly, so every build happens in a session module whose
// go.mod pins the modules the running binary was built with (read from
// runtime/debug.ReadBuildInfo; tick itself replaced by its source
// directory when the binary was built from source), with the binary's
// toolchain and build settings (-trimpath, -race, -tags, GOARCH, cgo
// flags). The symbol tables come from yaegi's extract package, run by a
// small generator program built once in the session module. Plugins are
// cached on disk under the user's cache directory, keyed by the binary
// and the exact versions (or, for local module directories, the source
// contents) of everything they contain; a plugin is never unloaded, so
// each version loaded stays in memory until the kernel restarts.
package gocompile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

// SessionModule is the module path of the session module: %%go cells are
// its packages tick.session/cells/cellN.
const SessionModule = "tick.session"

// Config configures a Builder. The zero value uses the defaults.
type Config struct {
	// CacheDir holds plugins and the symbol generator, per binary; default
	// $TICK_CACHE_DIR, else the user's cache directory + /tick/go.
	CacheDir string
	// Go is the go command; default $TICK_GO, else "go" on PATH.
	Go string
	// Source is tick's source directory, for binaries built with
	// -trimpath; default $TICK_SOURCE, else found from build information.
	Source string
}

// Event is a step of a build, for progress lines.
type Event struct {
	// Stage is what happens: "resolving", "fetching", "generating symbols",
	// "compiling", "linking", "loading", "done".
	Stage string
	// Detail is the package or module concerned.
	Detail  string
	Elapsed time.Duration
}

// Progress receives events while a build runs; it may be nil.
type Progress func(Event)

func (p Progress) emit(start time.Time, stage, detail string) {
	if p != nil {
		p(Event{Stage: stage, Detail: detail, Elapsed: time.Since(start)})
	}
}

// Symbols are yaegi symbol tables: "importpath/name" → exported names.
type Symbols = map[string]map[string]reflect.Value

// Package is a compiled package loaded into the process.
type Package struct {
	// Path is the import path cells use; BuildPath the path it was built
	// under (different for the second and later versions of a local
	// module, whose earlier version stays loaded under Path).
	Path, BuildPath string
	// Name is the package name.
	Name string
	// Module and Version say where it comes from ("" for cells); Dir is
	// its source directory; Local that the module is a local directory.
	Module, Version, Dir string
	Local                bool
	// Generation counts the versions of a local module or cell loaded so
	// far (1 for the first).
	Generation int
	// Plugin is the .so file; Cached that it came from the disk cache.
	Plugin string
	Cached bool
	// Took is how long resolving, building and loading took.
	Took time.Duration
	// Symbols are the package's yaegi symbols, keyed by Path.
	Symbols Symbols
	// Generic lists exported generic functions and types, which
	// interpreted cells cannot use (yaegi cannot instantiate compiled
	// generics); Exported lists the names of a cell's exports.
	Generic, Exported []string

	key string
}

// Builder builds and loads compiled packages for one session. Its methods
// are safe for concurrent use (they run one at a time).
type Builder struct {
	cfg Config

	mu       sync.Mutex
	host     *Host
	ready    bool
	readyErr error
	goCmd    string
	root     string            // CacheDir/<host key>
	sess     string            // this session's module directory
	gen      string            // the symbol generator binary
	lock     *os.File          // holds the session module's lock
	required map[string]string // tick's go.mod requirements (source builds)
	loaded   map[string]*Package
	exports  map[string]string // name exported by a cell → the cell's package path
	cellSeq  map[int]int
	order    []*Package
}

// New returns a Builder. Nothing is checked or built until first use.
func New(cfg Config) *Builder {
	cfg.CacheDir = firstNonEmpty(cfg.CacheDir, os.Getenv("TICK_CACHE_DIR"))
	cfg.Go = firstNonEmpty(cfg.Go, os.Getenv("TICK_GO"), "go")
	cfg.Source = firstNonEmpty(cfg.Source, os.Getenv("TICK_SOURCE"))
	return &Builder{cfg: cfg, loaded: map[string]*Package{}, exports: map[string]string{}, cellSeq: map[int]int{}}
}

// process is what all Builders of the process share, on purpose: the Go
// runtime's set of loaded packages is process-wide, and a package path
// can be loaded with one content only. A kernel has one session, but tests
// (and programs embedding tick) start several in one process.
var process = struct {
	sync.Mutex
	cellPaths map[string]bool           // %%go package paths used
	local     map[string]map[string]int // local module → content hash → generation
}{cellPaths: map[string]bool{}, local: map[string]map[string]int{}}

// Supported reports whether this binary can load plugins at all; the
// error is an *UnsupportedError that says why not.
func Supported() error {
	switch {
	case !cgoEnabled:
		return &UnsupportedError{Reason: "it was built with CGO_ENABLED=0, and Go plugins need cgo; rebuild tick with CGO_ENABLED=1 (and a C compiler) to compile Go in cells"}
	case runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd":
		return &UnsupportedError{Reason: "Go plugins are not supported on " + runtime.GOOS + " (only on Linux, macOS and FreeBSD)"}
	}
	return nil
}

// Check makes the builder ready: plugin support, the go command and its
// version, the cache and session module. Its error is an
// *UnsupportedError, a *ToolchainError or a setup failure; it is
// remembered, so a broken setup is reported once per call but checked
// only once.
func (b *Builder) Check(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.check(ctx)
}

func (b *Builder) check(ctx context.Context) error {
	if b.ready {
		return b.readyErr
	}
	b.readyErr = b.setup(ctx)
	b.ready = b.readyErr == nil || !isTransient(b.readyErr)
	return b.readyErr
}

func isTransient(err error) bool { return errors.Is(err, context.Canceled) }

func (b *Builder) setup(ctx context.Context) error {
	if err := Supported(); err != nil {
		return err
	}
	h, err := ReadHost(b.cfg.Source)
	if err != nil {
		return err
	}
	b.host = h
	if err := b.checkToolchain(ctx); err != nil {
		return err
	}
	base := b.cfg.CacheDir
	if base == "" {
		if base, err = os.UserCacheDir(); err != nil {
			return fmt.Errorf("gocompile: no cache directory (%v): set TICK_CACHE_DIR", err)
		}
		base = filepath.Join(base, "tick", "go")
	}
	b.root = filepath.Join(base, h.Key())
	for _, d := range []string{filepath.Join(b.root, "plugins"), filepath.Join(b.root, "bin"), filepath.Join(b.root, "sessions")} {
		if err := privateDir(d); err != nil {
			return err
		}
	}
	return b.newSessionModule(ctx)
}

// checkToolchain finds the go command and requires the binary's version.
func (b *Builder) checkToolchain(ctx context.Context) error {
	path, err := exec.LookPath(b.cfg.Go)
	if err != nil {
		return &ToolchainError{Want: b.host.GoVersion, Path: b.cfg.Go, Err: err}
	}
	cmd := exec.CommandContext(ctx, path, "env", "GOVERSION")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return &ToolchainError{Want: b.host.GoVersion, Path: path, Err: err}
	}
	have := strings.TrimSpace(string(out))
	if have != b.host.GoVersion {
		return &ToolchainError{Want: b.host.GoVersion, Have: have, Path: path}
	}
	b.goCmd = path
	return nil
}

// privateDir creates dir (and parents, mode 0700) and checks it with
// tick's one check of cache directories (internal/privdir): a directory
// another user owns or can write, or can replace through a directory above
// it ($TICK_CACHE_DIR mode 0777, say), is refused, naming it.
func privateDir(dir string) error {
	if err := privdir.Ensure(dir); err != nil {
		return fmt.Errorf("gocompile: the cache for compiled Go: %w", err)
	}
	return nil
}

// Loaded lists the compiled packages loaded so far, in load order (every
// version of a local module or cell): for completion and inspection,
// which read their source in Dir.
func (b *Builder) Loaded() []Package {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Package, len(b.order))
	for i, p := range b.order {
		out[i] = *p
	}
	return out
}

// Host is the running binary's build, once Check has read it (nil before).
func (b *Builder) Host() *Host {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.host
}

// Dirs are the cache directory of this binary and the session module's.
func (b *Builder) Dirs() (cache, session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.root, b.sess
}

// GoCommand is the go command the builder runs (after Check).
func (b *Builder) GoCommand() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.goCmd
}
