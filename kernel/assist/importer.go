package assist

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Module is tick's module path; cells import its packages under the short
// prefix CellPrefix ("tick/runtime/tensor").
const (
	Module     = "github.com/tick-kernel/tick"
	CellPrefix = "tick"
)

// ImportError says why a package could not be loaded for the assistant.
type ImportError struct {
	Path string
	Err  error
}

func (e *ImportError) Error() string { return fmt.Sprintf("assist: package %q: %v", e.Path, e.Err) }
func (e *ImportError) Unwrap() error { return e.Err }

// pkgInfo is one package loaded from source: its types (function bodies
// not checked) and its parsed files (with comments, for go/doc).
type pkgInfo struct {
	types   *types.Package
	err     error
	source  bool // loaded from source (not from the disk cache)
	written bool // written to the disk cache (guarded by loader.writing)
	done    chan struct{}
}

// importer loads packages from their source: the standard library from
// GOROOT, tick's own packages from tick's source tree, their module
// dependencies from the module cache. Results are cached for the life of
// the importer; concurrent imports of one path wait for one load.
type importer struct {
	fset    *token.FileSet
	ctx     build.Context
	goroot  string
	tick    string            // tick's module root, "" when unknown
	modDirs map[string]string // module path → directory in the module cache

	mu    sync.Mutex
	pkgs  map[string]*pkgInfo
	extra func(path string) (dir string, ok bool)
	cache string // directory of the packages' export data ("" for none)
	// checked, when set, is called after a package was checked from
	// source (the loader then writes the cache in the background).
	checked func()

	// expMu serializes what changes shared: reading export data
	// (gcexportdata.Read fills in packages of the map) and adding the
	// packages checked from source to it, so a package has one
	// *types.Package whichever way it was loaded.
	expMu  sync.Mutex
	shared map[string]*types.Package

	// urgent counts the callers waiting for a package another load is
	// checking, and WaitIdle's callers: while one waits, held background
	// work (Assistant.Hold) runs.
	urgent atomic.Int32
}

// setExtra sets where packages other than the standard library's and
// tick's are found.
func (imp *importer) setExtra(dir func(string) (string, bool)) {
	imp.mu.Lock()
	imp.extra = dir
	imp.mu.Unlock()
}

func newImporter(fset *token.FileSet, tickRoot string) *importer {
	ctx := build.Default
	ctx.CgoEnabled = false // the pure-Go files: no C to understand
	imp := &importer{fset: fset, ctx: ctx, goroot: ctx.GOROOT, tick: tickRoot, pkgs: map[string]*pkgInfo{}, shared: map[string]*types.Package{}}
	imp.modDirs = moduleDirs(tickRoot)
	return imp
}

// tickSource finds tick's module root from this file's compile-time path
// (a binary built from source), or from TICK_SOURCE.
func tickSource() string {
	if d := os.Getenv("TICK_SOURCE"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file))) // kernel/assist/importer.go → module root
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(data), "module "+Module+"\n") {
		return dir
	}
	return ""
}

// moduleDirs reads the requirements of tick's go.mod and maps each module
// to its directory in the module cache.
func moduleDirs(root string) map[string]string {
	dirs := map[string]string{}
	if root == "" {
		return dirs
	}
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return dirs
	}
	defer f.Close()
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(build.Default.GOPATH, "pkg", "mod")
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(fields) < 2 || !strings.Contains(fields[0], ".") || !strings.HasPrefix(fields[1], "v") {
			continue
		}
		dirs[fields[0]] = filepath.Join(cache, escapeModule(fields[0])+"@"+fields[1])
	}
	return dirs
}

// escapeModule is the module cache's case encoding (!x for X).
func escapeModule(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// canonical maps the path a cell imports to the package's real path.
func canonical(path string) string {
	if rest, ok := strings.CutPrefix(path, CellPrefix+"/"); ok {
		return Module + "/" + rest
	}
	return path
}

// dir finds the source directory of the package at path.
func (imp *importer) dir(path string) (string, bool) {
	if rest, ok := strings.CutPrefix(path, Module+"/"); ok {
		if imp.tick == "" {
			return "", false
		}
		return filepath.Join(imp.tick, rest), true
	}
	if isStd(path) {
		if d := filepath.Join(imp.goroot, "src", path); exists(d) {
			return d, true
		}
		if d := filepath.Join(imp.goroot, "src", "vendor", path); exists(d) {
			return d, true
		}
	}
	if strings.HasPrefix(path, "golang.org/x/") {
		if d := filepath.Join(imp.goroot, "src", "vendor", path); exists(d) {
			if _, tickDep := imp.moduleDir(path); !tickDep {
				return d, true
			}
		}
	}
	if d, ok := imp.moduleDir(path); ok {
		return d, true
	}
	imp.mu.Lock()
	extra := imp.extra
	imp.mu.Unlock()
	if extra != nil {
		return extra(path)
	}
	return "", false
}

func (imp *importer) moduleDir(path string) (string, bool) {
	best := ""
	for m := range imp.modDirs {
		if (path == m || strings.HasPrefix(path, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	if best == "" {
		return "", false
	}
	return filepath.Join(imp.modDirs[best], strings.TrimPrefix(path, best)), true
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// isStd reports whether path is a standard-library path (no dot in its
// first element).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != CellPrefix
}

// Import implements types.Importer.
func (imp *importer) Import(path string) (*types.Package, error) {
	p := imp.load(canonical(path), nil, nil)
	return p.types, p.err
}

// importGated is Import for background work: gate is called before
// each package (the package or one of its dependencies) is checked from
// source, and may wait.
func (imp *importer) importGated(path string, gate func()) (*types.Package, error) {
	p := imp.load(canonical(path), nil, gate)
	return p.types, p.err
}

// chain is the importer a package's check uses: it knows the packages
// being loaded on the way to it, so an import cycle (invalid Go, but a
// module's source may have one) is an error instead of a wait forever.
type chain struct {
	imp   *importer
	paths []string
	gate  func() // the gate of the import that started the chain (importGated); nil for none
}

func (c chain) Import(path string) (*types.Package, error) {
	p := c.imp.load(canonical(path), c.paths, c.gate)
	return p.types, p.err
}

// load returns the package at path (canonical), loading it once; via
// lists the packages whose loading imports it; gate, when not nil, is
// called before the package is checked from source.
func (imp *importer) load(path string, via []string, gate func()) *pkgInfo {
	if path == "unsafe" {
		return &pkgInfo{types: types.Unsafe}
	}
	if slices.Contains(via, path) {
		return &pkgInfo{err: &ImportError{path, fmt.Errorf("import cycle: %s", strings.Join(append(via, path), " → "))}}
	}
	via = append(via[:len(via):len(via)], path)
	imp.mu.Lock()
	p, ok := imp.pkgs[path]
	if ok {
		imp.mu.Unlock()
		select {
		case <-p.done:
		default: // another load is checking it, maybe held: let it run
			imp.urgent.Add(1)
			<-p.done
			imp.urgent.Add(-1)
		}
		return p
	}
	p = &pkgInfo{done: make(chan struct{})}
	imp.pkgs[path] = p
	imp.mu.Unlock()
	defer close(p.done)
	if pkg := imp.readExport(path, via, gate); pkg != nil {
		p.types = pkg
		return p
	}
	p.source = true
	if gate != nil {
		gate()
	}
	files, err := imp.parseDir(path, 0)
	if err != nil {
		p.err = err
		return p
	}
	conf := types.Config{Importer: chain{imp, via, gate}, IgnoreFuncBodies: true, FakeImportC: true, Error: func(error) {}}
	p.types, _ = conf.Check(path, imp.fset, files, nil)
	imp.expMu.Lock()
	if _, ok := imp.shared[path]; !ok {
		imp.shared[path] = p.types
	}
	imp.expMu.Unlock()
	if imp.checked != nil {
		imp.checked()
	}
	return p
}

// parseDir parses the Go files of the package at path (canonical) that
// this platform builds, without cgo.
func (imp *importer) parseDir(path string, mode parser.Mode) ([]*ast.File, error) {
	dir, ok := imp.dir(path)
	if !ok {
		return nil, &ImportError{path, fmt.Errorf("no source found (not in GOROOT, tick's source or its modules)")}
	}
	bp, err := imp.ctx.ImportDir(dir, 0)
	if err != nil && bp == nil {
		return nil, &ImportError{path, err}
	}
	names := append([]string{}, bp.GoFiles...)
	if len(names) == 0 {
		return nil, &ImportError{path, fmt.Errorf("no Go files in %s", dir)}
	}
	sort.Strings(names)
	files := make([]*ast.File, 0, len(names))
	for _, n := range names {
		f, err := parser.ParseFile(imp.fset, filepath.Join(dir, n), nil, mode|parser.SkipObjectResolution)
		if f != nil {
			files = append(files, f)
		} else if err != nil {
			return nil, &ImportError{path, err}
		}
	}
	return files, nil
}

// fromSource returns the packages checked from source so far (not read
// from the disk cache) that were not written to it yet.
func (imp *importer) fromSource() (pkgs []*types.Package) {
	imp.mu.Lock()
	all := make(map[string]*pkgInfo, len(imp.pkgs))
	for k, v := range imp.pkgs {
		all[k] = v
	}
	imp.mu.Unlock()
	for path, p := range all {
		select {
		case <-p.done:
		default:
			continue
		}
		if p.types == nil || p.err != nil || !p.source || p.written || path == "unsafe" || !p.types.Complete() {
			continue
		}
		p.written = true
		pkgs = append(pkgs, p.types)
	}
	return pkgs
}

// loaded returns the package at path if it has finished loading.
func (imp *importer) loaded(path string) (*pkgInfo, bool) {
	imp.mu.Lock()
	p, ok := imp.pkgs[canonical(path)]
	imp.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-p.done:
		return p, true
	default:
		return nil, false
	}
}
