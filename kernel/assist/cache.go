package assist

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/tick-kernel/tick/internal/privdir"
)

// Packages' types are kept on disk, one file per package (gcexportdata),
// so a request reads only the packages it needs: a file starts with a
// line naming the package's imports (loaded first, so that every package
// has one *types.Package), then a line stamping its source (empty for the
// standard library, whose directory is keyed by the Go installation; the
// names, sizes and times of the Go files of other packages' directories,
// so an edited package is checked again), then the export data.

// cacheDir is the directory under root of this Go installation's export
// data ("" when root is).
func (imp *importer) cacheDir(root string) string {
	if root == "" {
		return ""
	}
	key := sha256.Sum256([]byte(runtime.Version() + "\x00" + imp.goroot + "\x00" + imp.ctx.GOOS + "/" + imp.ctx.GOARCH))
	return filepath.Join(root, fmt.Sprintf("std-%x", key[:8]))
}

func cacheName(path string) string { return strings.ReplaceAll(path, "/", "%") + ".types" }

// readExport loads the standard-library package at path from the disk
// cache, nil when it is not there (or does not read).
func (imp *importer) readExport(path string, via []string, gate func()) *types.Package {
	if imp.cache == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(imp.cache, cacheName(path)))
	if err != nil {
		return nil
	}
	head, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil
	}
	stamp, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || string(stamp) != imp.stamp(path) {
		return nil
	}
	for _, dep := range strings.Fields(string(head)) {
		if d := imp.load(dep, via, gate); d.types == nil {
			return nil
		}
	}
	imp.expMu.Lock()
	defer imp.expMu.Unlock()
	if pkg, ok := imp.shared[path]; ok && pkg.Complete() {
		return pkg
	}
	pkg, err := gcexportdata.Read(bytes.NewReader(body), imp.fset, imp.shared, path)
	if err != nil {
		return nil
	}
	return pkg
}

// writeSoon writes the cache in the background, once for all the
// packages checked from source meanwhile.
func (a *loader) writeSoon() {
	if a.imp.cache == "" || !a.pending.CompareAndSwap(false, true) {
		return
	}
	a.background.Add(1)
	go func() {
		defer a.background.Add(-1)
		time.Sleep(200 * time.Millisecond) // let a package's dependencies finish too
		a.writeCache()
	}()
}

// writeCache writes the export data of the standard-library packages
// checked from source so far. Errors leave the cache as it was: it is
// only ever a shortcut.
func (a *loader) writeCache() {
	if a.imp.cache == "" {
		return
	}
	a.writing.Lock()
	defer a.writing.Unlock()
	a.pending.Store(false)
	if err := privdir.Ensure(a.imp.cache); err != nil {
		return
	}
	// Files a process stopped while writing.
	if tmps, _ := filepath.Glob(filepath.Join(a.imp.cache, "tmp-*")); len(tmps) > 0 {
		for _, t := range tmps {
			if fi, err := os.Stat(t); err == nil && time.Since(fi.ModTime()) > time.Minute {
				os.Remove(t)
			}
		}
	}
	for _, pkg := range a.imp.fromSource() {
		writeExport(a, filepath.Join(a.imp.cache, cacheName(pkg.Path())), pkg)
	}
}

func writeExport(a *loader, file string, pkg *types.Package) {
	tmp, err := os.CreateTemp(filepath.Dir(file), "tmp-*")
	if err != nil {
		return
	}
	w := bufio.NewWriter(tmp)
	var deps []string
	for _, d := range pkg.Imports() {
		deps = append(deps, d.Path())
	}
	fmt.Fprintln(w, strings.Join(deps, " "))
	fmt.Fprintln(w, a.imp.stamp(pkg.Path()))
	err = gcexportdata.Write(w, a.fset, pkg)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return
	}
	os.Rename(tmp.Name(), file)
}

// stamp identifies the source of the package at path: "" for the
// standard library, else the names, sizes and modification times of the
// Go files in its directory, hashed ("?" when it cannot be read, which
// matches no file).
func (imp *importer) stamp(path string) string {
	dir, ok := imp.dir(path)
	if !ok {
		return "?"
	}
	if strings.HasPrefix(dir, filepath.Join(imp.goroot, "src")+string(filepath.Separator)) {
		return "" // the cache directory is keyed by the Go installation
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "?"
	}
	h := sha256.New()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return "?"
		}
		fmt.Fprintf(h, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:12])
}
