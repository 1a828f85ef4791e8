package gocompile

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// renamedPrefix prefixes the module path of a local module's second and
// later versions: a process cannot load two versions of one package path
// (plugin.Open refuses a package it already has with other contents).
func renamedPrefix(gen int) string { return fmt.Sprintf("tick.v%d/", gen) }

// renamedCopy copies local module m into the session module under the
// path renamedPrefix(gen)+m.Path, with the module's imports of its own
// packages rewritten, and returns path's new import path.
func (b *Builder) renamedCopy(ctx context.Context, m *listedModule, gen int, path string) (string, error) {
	newMod := renamedPrefix(gen) + m.Path
	dst := filepath.Join(b.sess, "v", strconv.Itoa(gen), filepath.FromSlash(m.Path))
	os.RemoveAll(dst)
	err := filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != m.Dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(m.Dir, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case rel == "go.mod":
			data = []byte(strings.Replace(string(data), "module "+m.Path, "module "+newMod, 1))
		case strings.HasSuffix(name, ".go"):
			data = rewriteImports(data, m.Path, newMod)
		}
		return os.WriteFile(out, data, 0o600)
	})
	if err != nil {
		return "", fmt.Errorf("gocompile: copying %s for its new version: %w", m.Dir, err)
	}
	if _, errs, err := b.goRun(ctx, nil, "mod", "edit", "-require="+newMod+"@"+noVersion, "-replace="+newMod+"="+dst); err != nil {
		return "", fmt.Errorf("gocompile: %v: %s", err, errs)
	}
	return renamedPrefix(gen) + path, nil
}

// rewriteImports replaces, in Go source src, imports of module old (and
// its packages) by the same paths under module new. Files that do not
// parse are returned unchanged (the compiler reports them).
func rewriteImports(src []byte, old, new string) []byte {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return src
	}
	out := []byte{}
	last := 0
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != old && !strings.HasPrefix(p, old+"/") {
			continue
		}
		start, end := int(imp.Path.Pos())-1, int(imp.Path.End())-1
		out = append(out, src[last:start]...)
		out = append(out, strconv.Quote(new+strings.TrimPrefix(p, old))...)
		last = end
	}
	return append(out, src[last:]...)
}
