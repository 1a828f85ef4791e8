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

	"golang.org/x/tools/go/gcexportdata"
)

// The standard library's types are kept on disk, one file per package
// (gcexportdata), so a request reads only the packages it needs: a file
// starts with a line naming the package's imports, loaded first so that
// every package has one *types.Package, then the export data.

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
func (imp *importer) readExport(path string) *types.Package {
	if imp.cache == "" || !isStd(path) {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(imp.cache, cacheName(path)))
	if err != nil {
		return nil
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil
	}
	for _, dep := range strings.Fields(string(head)) {
		if d := imp.load(dep); d.types == nil {
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

// writeCache writes the export data of the standard-library packages
// checked from source so far. Errors leave the cache as it was: it is
// only ever a shortcut.
func (a *loader) writeCache() {
	if a.imp.cache == "" {
		return
	}
	a.writing.Lock()
	defer a.writing.Unlock()
	if err := os.MkdirAll(a.imp.cache, 0o755); err != nil {
		return
	}
	for _, pkg := range a.imp.stdFromSource() {
		file := filepath.Join(a.imp.cache, cacheName(pkg.Path()))
		if _, err := os.Stat(file); err == nil {
			continue
		}
		writeExport(a, file, pkg)
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
