package gocompile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// CellSource is a %%go cell: a Go file's body (imports and package-level
// declarations; a package clause is optional and ignored).
type CellSource struct {
	// N is the cell's execution count; Line and Col are where Body starts
	// in the cell (1-based), so that compile errors name the cell's lines.
	N, Line, Col int
	Body         string
}

// CellPrefix is what cells import tick's packages with ("tick/display");
// compiled cells import them by the module path, so they share the
// running kernel's runtime.
const CellPrefix = "tick/"

// Cell compiles a %%go cell as package tick.session/cells/cellN (a new
// package for every run), loads it and returns it. Names that earlier
// %%go cells exported are visible to it (qualified with their package);
// Replaced lists the exports of earlier cells that this cell's exports
// replace for the cells that follow.
func (b *Builder) Cell(ctx context.Context, src CellSource, p Progress) (pkg *Package, replaced []string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return nil, nil, err
	}
	start := time.Now()
	name := b.cellName(src.N)
	path := SessionModule + "/cells/" + name
	file, shifts, imports, err := b.cellFile(name, src)
	if err != nil {
		return nil, nil, err
	}
	for _, imp := range imports {
		if _, err := b.list(ctx, p, imp); err != nil {
			return nil, nil, err
		}
	}
	exported, generic := exportsOf(file)
	h := sha256.New()
	fmt.Fprintln(h, formatVersion, b.host.Key(), path, file)
	mod, _ := os.ReadFile(filepath.Join(b.sess, "go.mod"))
	h.Write(mod)
	pkg = &Package{Path: path, BuildPath: path, Name: name, Generation: b.cellSeq[src.N],
		key: hex.EncodeToString(h.Sum(nil))[:24], Exported: exported, Generic: generic}
	pkg.Dir = filepath.Join(b.sess, "cells", name)
	if err := os.MkdirAll(pkg.Dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("gocompile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(pkg.Dir, "cell.go"), []byte(file), 0o600); err != nil {
		return nil, nil, fmt.Errorf("gocompile: %w", err)
	}
	if err := b.buildAndLoad(ctx, p, start, pkg); err != nil {
		if be, ok := err.(*BuildError); ok {
			be.Package = fmt.Sprintf("cell[%d]", src.N)
			be.Output = cellPositions(be.Output, name, src, shifts)
		}
		return nil, nil, err
	}
	for _, n := range exported {
		if old, ok := b.exports[n]; ok && old != path {
			replaced = append(replaced, n)
		}
		b.exports[n] = path
	}
	b.order = append(b.order, pkg)
	return pkg, replaced, nil
}

// cellName is a package name for cell n not used before in the process:
// cellN, else cellN_2, cellN_3, ...
func (b *Builder) cellName(n int) string {
	process.Lock()
	defer process.Unlock()
	for {
		b.cellSeq[n]++
		name := fmt.Sprintf("cell%d", n)
		if k := b.cellSeq[n]; k > 1 {
			name = fmt.Sprintf("cell%d_%d", n, k)
		}
		if p := SessionModule + "/cells/" + name; !process.cellPaths[p] {
			process.cellPaths[p] = true
			return name
		}
	}
}

// shift records text inserted into a cell's line: errors after col on
// that line are moved back by n columns.
type shift struct{ line, col, n int }

// cellFile turns a cell's body into the package's source: a package
// clause on the body's first line (so lines stay the cell's), imports of
// earlier cells whose exports it uses, and tick's short import paths
// replaced by the module path. It returns the non-standard imports too.
func (b *Builder) cellFile(name string, src CellSource) (string, []shift, []string, error) {
	body := stripPackageClause(src.Body)
	head := "package " + name + "; "
	text := head + body
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", text, parser.ParseComments) // with object resolution: unresolved names
	if err != nil {
		return "", nil, nil, &BuildError{Package: fmt.Sprintf("cell[%d]", src.N), Output: cellPositions(err.Error(), "", src, []shift{{1, 1, len(head)}})}
	}
	var edits []edit
	shifts := []shift{{1, 1, len(head)}}
	// bodyPos is a position of text in the body's coordinates.
	bodyPos := func(p token.Pos) (line, col int) {
		pos := fset.Position(p)
		if pos.Line == 1 {
			return 1, pos.Column - len(head)
		}
		return pos.Line, pos.Column
	}
	var imports []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if rest, ok := strings.CutPrefix(p, CellPrefix); ok {
			np := strconv.Quote(tickModule + "/" + rest)
			off := fset.Position(imp.Path.Pos()).Offset
			edits = append(edits, edit{off: off, end: off + len(imp.Path.Value), text: np})
			l, c := bodyPos(imp.Path.End())
			shifts = append(shifts, shift{l, c, len(np) - len(imp.Path.Value)})
			continue
		}
		if strings.Contains(strings.Split(p, "/")[0], ".") {
			imports = append(imports, p)
		}
	}
	aliases := map[string]string{} // package path → alias
	for _, id := range unresolvedRefs(f) {
		path, ok := b.exports[id.Name]
		if !ok {
			continue
		}
		alias := "ᐩ" + strings.TrimPrefix(path, SessionModule+"/cells/")
		aliases[path] = alias
		off := fset.Position(id.Pos()).Offset
		q := alias + "."
		edits = append(edits, edit{off: off, end: off, text: q})
		l, c := bodyPos(id.Pos())
		shifts = append(shifts, shift{l, c, len(q)})
	}
	var imps strings.Builder
	for _, p := range sortedKeys(aliases) {
		fmt.Fprintf(&imps, "import %s %q; ", aliases[p], p)
	}
	if imps.Len() > 0 {
		edits = append(edits, edit{off: len(head), end: len(head), text: imps.String()})
		shifts = append(shifts, shift{1, 1, imps.Len()})
	}
	return applyEdits(text, edits), shifts, imports, nil
}

type edit struct {
	off, end int
	text     string
}

func applyEdits(s string, edits []edit) string {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(s[last:e.off])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(s[last:])
	return b.String()
}

var packageClause = regexp.MustCompile(`^(\s*(//[^\n]*\n\s*)*)package\s+\w+`)

// stripPackageClause blanks a leading package clause (keeping positions).
func stripPackageClause(body string) string {
	m := packageClause.FindStringSubmatchIndex(body)
	if m == nil {
		return body
	}
	return body[:m[3]] + strings.Repeat(" ", m[1]-m[3]) + body[m[1]:]
}

// unresolvedRefs are the identifiers of f that refer to nothing declared
// in it: candidates for names of earlier cells. Keys of composite
// literals count only for map literals (a struct literal's keys are its
// fields).
func unresolvedRefs(f *ast.File) []*ast.Ident {
	refs := append([]*ast.Ident(nil), f.Unresolved...)
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if _, isMap := cl.Type.(*ast.MapType); !isMap {
			return true
		}
		for _, e := range cl.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Obj == nil {
					refs = append(refs, id)
				}
			}
		}
		return true
	})
	return refs
}

// exportsOf lists the exported package-level names of a cell's file, and
// those of them that are generic.
func exportsOf(file string) (exported, generic []string) {
	f, err := parser.ParseFile(token.NewFileSet(), "", file, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil
	}
	add := func(id *ast.Ident, gen bool) {
		if id.IsExported() {
			exported = append(exported, id.Name)
			if gen {
				generic = append(generic, id.Name)
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name, d.Type.TypeParams != nil)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					add(sp.Name, sp.TypeParams != nil)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						add(n, false)
					}
				}
			}
		}
	}
	return exported, generic
}

var filePos = regexp.MustCompile(`(?m)(?:\S*/)?cell\.go:(\d+)(?::(\d+))?:`)

// cellPositions rewrites the compiler's file:line:col positions in the
// package's file to the cell's own (cell[N]:line:col), and drops the go
// command's "# package" header lines. shifts are the insertions into the
// body, in the body's coordinates.
func cellPositions(out, name string, src CellSource, shifts []shift) string {
	sort.SliceStable(shifts, func(i, j int) bool {
		return shifts[i].line < shifts[j].line || shifts[i].line == shifts[j].line && shifts[i].col < shifts[j].col
	})
	out = filePos.ReplaceAllStringFunc(out, func(m string) string {
		sm := filePos.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sm[1])
		col, _ := strconv.Atoi(sm[2])
		col = max(col, 1)
		acc := 0
		for _, s := range shifts {
			if s.line != line {
				continue
			}
			if col < s.col+acc {
				break
			}
			if col < s.col+acc+s.n {
				acc = col - s.col // inside inserted text: the place it was inserted at
				break
			}
			acc += s.n
		}
		col -= acc
		cl, cc := src.Line+line-1, col
		if line == 1 {
			cc = src.Col + col - 1
		}
		return fmt.Sprintf("cell[%d]:%d:%d:", src.N, cl, max(cc, 1))
	})
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		if name != "" {
			l = strings.ReplaceAll(l, SessionModule+"/cells/"+name+".", "")
		}
		keep = append(keep, l)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
