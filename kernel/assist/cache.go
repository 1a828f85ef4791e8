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
	"sort"

	"golang.org/x/tools/go/gcexportdata"
)

// cacheFile is where the standard library's types are kept for this Go
// installation.
func (a *loader) cacheFile() string {
	if a.cache == "" {
		return ""
	}
	key := sha256.Sum256([]byte(runtime.Version() + "\x00" + a.imp.goroot + "\x00" + a.imp.ctx.GOOS + a.imp.ctx.GOARCH))
	return filepath.Join(a.cache, fmt.Sprintf("std-%x.types", key[:8]))
}

// readCache loads the cached standard-library types, if any. A cache
// that does not read is ignored (and rewritten by writeCache).
func (a *loader) readCache() {
	file := a.cacheFile()
	if file == "" {
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	m := map[string]*types.Package{}
	pkgs, err := gcexportdata.ReadBundle(bytes.NewReader(data), a.fset, m)
	if err != nil {
		return
	}
	a.imp.adopt(pkgs)
}

// writeCache writes the standard-library packages loaded from source,
// when there are new ones.
func (a *loader) writeCache() {
	file := a.cacheFile()
	if file == "" {
		return
	}
	pkgs, fresh := a.imp.stdLoaded()
	if !fresh {
		return
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path() < pkgs[j].Path() })
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "std-*.tmp")
	if err != nil {
		return
	}
	w := bufio.NewWriter(tmp)
	err = gcexportdata.WriteBundle(w, a.fset, pkgs)
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
