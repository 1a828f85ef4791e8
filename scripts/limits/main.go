// Command limits checks the size limits the kernel's design keeps
// (issue 26): the engine package kernel/session at most 3,000 lines, no
// package under kernel/ above 3,500, and no type of the kernel with more
// than 40 methods. Types outside kernel/ with that many are listed, not
// limited: runtime/tensor.Tensor's methods are the tensor API users write
// (Add, Reshape, Realize...), as numpy's ndarray has its hundred. Lines are those of a package's non-test Go files that
// are not generated ("// Code generated ... DO NOT EDIT."): generated
// tables are sized by what they list, not by design.
//
// scripts/lint.sh runs it from the module's root; it prints every
// package's and every large type's count, marks the ones over their
// limit, and exits 1 when any is.
//
//	go run ./scripts/limits [-v]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The limits, and the packages they apply to (slash paths from the
// module's root).
const (
	engineDir     = "kernel/session"
	engineLimit   = 3000
	kernelDir     = "kernel"
	packageLimit  = 3500
	methodLimit   = 40
	reportMethods = 25 // types with at least this many methods are listed
)

var generated = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// pkg is one directory's non-test, non-generated Go files.
type pkg struct {
	dir     string
	lines   int
	methods map[string]int // receiver type name -> methods declared on it
}

func main() {
	verbose := flag.Bool("v", false, "list every kernel package, not only the largest")
	flag.Parse()
	pkgs, err := scan(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "limits:", err)
		os.Exit(2)
	}
	if !report(os.Stdout, pkgs, *verbose) {
		os.Exit(1)
	}
}

// scan reads every package directory under root, skipping testdata,
// hidden and underscore directories as the go tool does.
func scan(root string) ([]*pkg, error) {
	byDir := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if isGenerated(src) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", path, err)
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := byDir[dir]
		if p == nil {
			p = &pkg{dir: dir, methods: map[string]int{}}
			byDir[dir] = p
		}
		p.lines += bytes.Count(src, []byte("\n"))
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && len(fn.Recv.List) == 1 {
				p.methods[recvType(fn.Recv.List[0].Type)]++
			}
		}
		return nil
	})
	var out []*pkg
	for _, p := range byDir {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lines > out[j].lines })
	return out, err
}

// isGenerated reports whether src carries the generated-code comment
// before its package clause.
func isGenerated(src []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if generated.MatchString(line) {
			return true
		}
	}
	return false
}

// recvType names a receiver's type without its pointer and type
// parameters.
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return fmt.Sprintf("%T", e)
		}
	}
}

// inKernel reports whether dir is kernel or below it.
func inKernel(dir string) bool {
	return dir == kernelDir || strings.HasPrefix(dir, kernelDir+"/")
}

// report writes the counts and reports whether every limit holds.
func report(w io.Writer, pkgs []*pkg, verbose bool) bool {
	ok := true
	fmt.Fprintf(w, "lines of non-test, non-generated Go (limits: %s %d, other kernel packages %d):\n", engineDir, engineLimit, packageLimit)
	shown := 0
	for _, p := range pkgs {
		if !inKernel(p.dir) {
			continue
		}
		limit := packageLimit
		if p.dir == engineDir {
			limit = engineLimit
		}
		over := p.lines > limit
		if over || verbose || shown < 8 || p.dir == engineDir {
			mark := ""
			if over {
				mark = fmt.Sprintf("  OVER the limit of %d: split it by what its parts are for", limit)
				ok = false
			}
			fmt.Fprintf(w, "  %6d  %s%s\n", p.lines, p.dir, mark)
			shown++
		}
	}
	type typ struct {
		dir, name string
		n         int
	}
	var big []typ
	for _, p := range pkgs {
		for name, n := range p.methods {
			if n >= reportMethods {
				big = append(big, typ{p.dir, p.dir + "." + name, n})
			}
		}
	}
	sort.Slice(big, func(i, j int) bool { return big[i].n > big[j].n || big[i].n == big[j].n && big[i].name < big[j].name })
	fmt.Fprintf(w, "types with %d or more methods (limit %d for the kernel's):\n", reportMethods, methodLimit)
	if len(big) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, t := range big {
		mark := ""
		switch {
		case t.n > methodLimit && inKernel(t.dir):
			mark = fmt.Sprintf("  OVER the limit of %d: give a part of it a type of its own", methodLimit)
			ok = false
		case t.n > methodLimit:
			mark = "  (outside the kernel: not limited)"
		}
		fmt.Fprintf(w, "  %6d  %s%s\n", t.n, t.name, mark)
	}
	return ok
}
