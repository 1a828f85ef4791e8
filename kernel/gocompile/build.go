package gocompile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"plugin"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

// formatVersion changes when the layout of wrapper plugins changes, so
// plugins cached by an older tick are not loaded.
const formatVersion = "1"

// NotFoundError reports an import path that no module provides.
type NotFoundError struct {
	Path string
	Msg  string // the go command's
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("gocompile: no package %s: %s", e.Path, e.Msg)
}

// listed is the part of `go list -json` the builder reads.
type listed struct {
	ImportPath, Name, Dir string
	Standard              bool
	Module                *listedModule
	Error                 *struct{ Err string }
	DepsErrors            []*struct{ Err string }
}

type listedModule struct {
	Path, Version, Dir string
	Replace            *listedModule
}

// local reports whether m is replaced by a directory.
func (m *listedModule) local() bool { return m != nil && m.Replace != nil && m.Replace.Version == "" }

// list resolves path and its dependencies in the session module, adding
// the module that provides it (go get, refused on a conflict with tick's
// versions) when none does.
func (b *Builder) list(ctx context.Context, p Progress, path string) ([]*listed, error) {
	for attempt := 0; ; attempt++ {
		pkgs, err := b.listOnce(ctx, path)
		if err != nil {
			return nil, err
		}
		target := pkgs[len(pkgs)-1]
		if target.Error == nil {
			for _, d := range target.DepsErrors {
				return nil, &BuildError{Package: path, Output: d.Err}
			}
			if target.Name == "main" {
				return nil, fmt.Errorf("gocompile: %s is a command (package main), not a package to import", path)
			}
			return pkgs, nil
		}
		msg := target.Error.Err
		switch {
		case attempt == 0 && strings.Contains(msg, "no required module provides package"):
			if _, err := b.get(ctx, p, path, path); err != nil {
				return nil, err
			}
		case strings.Contains(msg, "is not in std") || strings.Contains(msg, "malformed import path") ||
			strings.Contains(msg, "cannot find module providing package") || strings.Contains(msg, "no required module provides package"):
			return nil, &NotFoundError{Path: path, Msg: msg}
		case strings.Contains(msg, "missing go.sum entry"):
			if attempt > 0 {
				return nil, &FetchError{Module: path, Output: msg}
			}
			if _, err := b.get(ctx, p, path, path); err != nil {
				return nil, err
			}
		default:
			return nil, &BuildError{Package: path, Output: msg}
		}
	}
}

func (b *Builder) listOnce(ctx context.Context, path string) ([]*listed, error) {
	out, errs, err := b.goRun(ctx, nil, "list", "-e", "-deps", "-json=ImportPath,Name,Dir,Standard,Module,Error,DepsErrors", "--", path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &BuildError{Package: path, Output: errs}
	}
	var pkgs []*listed
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var l listed
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("gocompile: reading go list: %w", err)
		}
		pkgs = append(pkgs, &l)
	}
	if len(pkgs) == 0 || pkgs[len(pkgs)-1].ImportPath != path {
		return nil, &BuildError{Package: path, Output: "go list did not report the package: " + errs}
	}
	return pkgs, nil
}

// Import builds (or finds in the cache) the plugin of package path and
// loads it. Importing a package already loaded returns it, unless its
// module is a local directory whose source changed: then a new version is
// built under another path and loaded beside the old one. changed reports
// that the returned package is newly loaded.
func (b *Builder) Import(ctx context.Context, path string, p Progress) (pkg *Package, changed bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return nil, false, err
	}
	start := time.Now()
	if old := b.loaded[path]; old != nil && !old.Local {
		return old, false, nil
	}
	p.emit(start, "resolving", path)
	pkgs, err := b.list(ctx, p, path)
	if err != nil {
		return nil, false, err
	}
	target := pkgs[len(pkgs)-1]
	key, gen, err := b.key(path, pkgs)
	if err != nil {
		return nil, false, err
	}
	if old := b.loaded[path]; old != nil && old.key == key {
		return old, false, nil
	}
	pkg = &Package{Path: path, BuildPath: path, Name: target.Name, Dir: target.Dir, Generation: gen, key: key}
	if m := target.Module; m != nil {
		pkg.Module, pkg.Version, pkg.Local = m.Path, m.Version, m.local()
	}
	if gen > 1 {
		if pkg.BuildPath, err = b.renamedCopy(ctx, target.Module, gen, path); err != nil {
			return nil, false, err
		}
	}
	if err := b.buildAndLoad(ctx, p, start, pkg); err != nil {
		return nil, false, err
	}
	b.loaded[path] = pkg
	b.order = append(b.order, pkg)
	return pkg, true, nil
}

// key is the cache key of path's plugin: the binary, the package, and the
// version of every module it contains (for a local module, the hash of
// its source); gen is the local module's generation for that source.
func (b *Builder) key(path string, pkgs []*listed) (string, int, error) {
	h := sha256.New()
	fmt.Fprintln(h, formatVersion, b.host.Key(), path)
	seen := map[string]bool{}
	gen := 1
	for _, l := range pkgs {
		m := l.Module
		if l.Standard || m == nil || seen[m.Path] {
			continue
		}
		seen[m.Path] = true
		if m.Path == tickModule {
			continue // tick's own packages are the binary's: the host key covers them
		}
		if !m.local() {
			fmt.Fprintln(h, m.Path, m.Version)
			continue
		}
		sum, err := dirHash(m.Dir)
		if err != nil {
			return "", 0, fmt.Errorf("gocompile: reading %s: %w", m.Dir, err)
		}
		fmt.Fprintln(h, m.Path, "dir", sum)
		if g := localGeneration(m.Path, sum); m.Path == pkgs[len(pkgs)-1].Module.Path {
			gen = g
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], gen, nil
}

// localGeneration numbers the contents of a local module in the process:
// 1 for the first seen, then 2, 3, ...
func localGeneration(mod, sum string) int {
	process.Lock()
	defer process.Unlock()
	gens := process.local[mod]
	if gens == nil {
		gens = map[string]int{}
		process.local[mod] = gens
	}
	if gens[sum] == 0 {
		gens[sum] = len(gens) + 1
	}
	return gens[sum]
}

// dirHash hashes the files of a module directory (hidden and _ files and
// directories skipped, as the go command skips them).
func dirHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// buildAndLoad makes pkg's plugin (unless the cache has it) and loads it.
func (b *Builder) buildAndLoad(ctx context.Context, p Progress, start time.Time, pkg *Package) error {
	pkg.Plugin = filepath.Join(b.root, "plugins", pkg.key+".so")
	if fi, err := os.Lstat(pkg.Plugin); err == nil && fi.Mode().IsRegular() {
		pkg.Cached = true
	} else if err := b.build(ctx, p, start, pkg); err != nil {
		return err
	}
	p.emit(start, "loading", pkg.Plugin)
	syms, err := load(pkg)
	var le *LoadError
	if err != nil && pkg.Cached && errors.As(err, &le) && le.Hint == "" {
		// A damaged cache entry (truncated, overwritten): build it again.
		os.Remove(pkg.Plugin)
		pkg.Cached = false
		if err := b.build(ctx, p, start, pkg); err != nil {
			return err
		}
		syms, err = load(pkg)
	}
	if err != nil {
		return err
	}
	pkg.Symbols = syms
	pkg.Took = time.Since(start)
	p.emit(start, "done", pkg.Path)
	return nil
}

// wrapperMain is the plugin's main package beside the generated symbols.
const wrapperMain = `// Code generated by tick (kernel/gocompile). DO NOT EDIT.

// Package main is the plugin of %s: its yaegi symbols.
package main

import "reflect"

// Symbols are the package's yaegi symbols ("path/name" → exported names).
var Symbols = map[string]map[string]reflect.Value{}
`

var buildLine = regexp.MustCompile(`^[\w.\-~/]+$`)

// build generates pkg's symbols and links its plugin into the cache.
func (b *Builder) build(ctx context.Context, p Progress, start time.Time, pkg *Package) error {
	if err := b.ensureGenerator(ctx, p, start); err != nil {
		return err
	}
	rel := filepath.Join("w", pkg.key)
	dir := filepath.Join(b.sess, rel)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("gocompile: %w", err)
	}
	p.emit(start, "generating symbols", pkg.BuildPath)
	syms, errs, err := b.runGenerator(ctx, pkg.BuildPath)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BuildError{Package: pkg.Path, Output: "generating its symbols: " + errs}
	}
	if err := os.WriteFile(filepath.Join(dir, "symbols.go"), []byte(syms), 0o600); err != nil {
		return fmt.Errorf("gocompile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(fmt.Sprintf(wrapperMain, pkg.BuildPath)), 0o600); err != nil {
		return fmt.Errorf("gocompile: %w", err)
	}
	tmp := pkg.Plugin + fmt.Sprintf(".tmp%d", os.Getpid())
	args := append([]string{"build", "-buildmode=plugin", "-v", "-o", tmp}, b.host.buildFlags()...)
	args = append(args, "./"+filepath.ToSlash(rel))
	p.emit(start, "compiling", pkg.BuildPath)
	_, errs, err = b.goRun(ctx, func(l string) {
		if buildLine.MatchString(l) {
			p.emit(start, "compiling", l)
		}
	}, args...)
	if err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BuildError{Package: pkg.Path, Output: compilerOutput(errs)}
	}
	if err := privdir.Replace(tmp, pkg.Plugin); err != nil { // a damaged entry (a directory) is replaced too
		return fmt.Errorf("gocompile: %w", err)
	}
	return nil
}

// compilerOutput drops the go command's package list (-v) from its
// error output.
func compilerOutput(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !buildLine.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// load opens pkg's plugin and returns its symbols keyed by pkg.Path.
func load(pkg *Package) (Symbols, error) {
	pl, err := plugin.Open(pkg.Plugin)
	if err != nil {
		return nil, loadError(pkg, err)
	}
	sym, err := pl.Lookup("Symbols")
	if err != nil {
		return nil, &LoadError{Package: pkg.Path, Err: err}
	}
	tables, ok := sym.(*Symbols)
	if !ok {
		return nil, &LoadError{Package: pkg.Path, Err: fmt.Errorf("its Symbols is a %T", sym)}
	}
	out := Symbols{}
	for k, v := range *tables {
		if rest, ok := strings.CutPrefix(k, pkg.BuildPath+"/"); ok && !strings.Contains(rest, "/") {
			out[pkg.Path+"/"+rest] = v
		}
	}
	if len(out) == 0 {
		return nil, &LoadError{Package: pkg.Path, Err: errors.New("the plugin has no symbols for it")}
	}
	return out, nil
}

var differentVersion = regexp.MustCompile(`different version of package (\S+)`)

// loadError explains a failed plugin.Open.
func loadError(pkg *Package, err error) error {
	e := &LoadError{Package: pkg.Path, Err: err}
	if m := differentVersion.FindStringSubmatch(err.Error()); m != nil {
		e.Hint = fmt.Sprintf("The plugin compiled %s differently from the tick binary that loads it: the running tick was built "+
			"from other source or with other settings than the plugin (tick: the binary's build information; plugin: the session module). "+
			"If %s is tick's, its source changed since this tick was built: rebuild tick (go build ./cmd/tick) and restart the kernel. "+
			"If it is a local module's, edit-and-reimport loads new versions of the imported package, not of packages it shares with "+
			"packages loaded earlier: restart the kernel. The stale plugin was removed.", m[1], m[1])
		os.Remove(pkg.Plugin)
	}
	return e
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
