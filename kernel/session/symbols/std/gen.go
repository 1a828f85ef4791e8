//go:build ignore

// gen.go writes the standard library tables of package std: `yaegi
// extract` of each package below, several at a time (extract type-checks
// its package from source, about a second of CPU each; one after the other
// they took minutes of go generate), each table then compacted (compact).
// Run by `go generate` (std.go).
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// packages are the standard library packages built into the interpreter;
// std.Compiled lists the ones left out, compiled on first import.
var packages = []string{
	"bufio", "bytes", "cmp", "compress/bzip2", "compress/flate", "compress/gzip", "compress/lzw", "compress/zlib",
	"container/heap", "container/list", "container/ring", "context",
	"crypto", "crypto/aes", "crypto/cipher", "crypto/des", "crypto/dsa", "crypto/ed25519", "crypto/hmac", "crypto/md5",
	"crypto/rand", "crypto/rc4", "crypto/sha1", "crypto/sha256", "crypto/sha512", "crypto/subtle", "crypto/x509/pkix",
	"database/sql/driver", "debug/dwarf",
	"encoding", "encoding/ascii85", "encoding/asn1", "encoding/base32", "encoding/base64", "encoding/binary",
	"encoding/csv", "encoding/gob", "encoding/hex", "encoding/json", "encoding/pem", "encoding/xml",
	"errors", "flag", "fmt",
	"go/ast", "go/build", "go/build/constraint", "go/constant", "go/doc", "go/doc/comment", "go/format", "go/parser",
	"go/printer", "go/scanner", "go/token", "go/types", "go/version",
	"hash", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash", "html",
	"image", "image/color", "image/color/palette", "image/draw", "image/gif", "image/jpeg", "image/png",
	"index/suffixarray", "io", "io/fs", "io/ioutil", "log", "log/slog",
	"maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand", "math/rand/v2", "mime", "mime/quotedprintable",
	"net", "net/netip", "net/url", "os", "os/signal", "os/user", "path", "path/filepath", "reflect", "regexp", "regexp/syntax",
	"runtime", "runtime/debug", "runtime/metrics", "runtime/pprof", "runtime/trace",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"testing", "testing/iotest", "testing/quick", "text/scanner", "text/tabwriter", "text/template", "text/template/parse",
	"time", "unicode", "unicode/utf16", "unicode/utf8",
}

func main() {
	tmp, err := os.MkdirTemp("", "tick-std-gen-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	yaegi := filepath.Join(tmp, "yaegi")
	if out, err := exec.Command("go", "build", "-o", yaegi, "github.com/traefik/yaegi/cmd/yaegi").CombinedOutput(); err != nil {
		fail(fmt.Errorf("building yaegi: %v\n%s", err, out))
	}
	work := make(chan string)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if err := extract(yaegi, tmp, p); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range packages {
		work <- p
	}
	close(work)
	wg.Wait()
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, err)
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
}

// extract runs yaegi extract for package p in a directory of its own
// under tmp (extract reports some failures on stderr only and exits 0: a
// missing file catches them), compacts the table and writes it here.
func extract(yaegi, tmp, p string) error {
	dir, err := os.MkdirTemp(tmp, "extract-")
	if err != nil {
		return err
	}
	cmd := exec.Command(yaegi, "extract", "-name", "std", p)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("yaegi extract %s: %v\n%s", p, err, out)
	}
	name := strings.NewReplacer("/", "-", ".", "_", "~", "_").Replace(p) + ".go" // yaegi extract's file name
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("yaegi extract %s wrote no %s: %w", p, name, err)
	}
	out, err := compact(src)
	if err != nil {
		return fmt.Errorf("compacting %s: %w", name, err)
	}
	return os.WriteFile(name, out, 0o644)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// compact rewrites the tables of one file of yaegi extract's output from
//
//	Symbols["io/io"] = map[string]reflect.Value{
//		"Copy": reflect.ValueOf(io.Copy),
//		"EOF":  reflect.ValueOf(&io.EOF).Elem(),
//
// to
//
//	Symbols["io/io"] = table([]entry{
//		{"Copy", io.Copy},
//		{"EOF", variable{&io.EOF}},
//
// which builds the same map (std.go's table calls reflect.ValueOf in one
// loop). The map literal made the compiler inline reflect.ValueOf and a map
// assignment for each of the ~3,500 symbols in the package's init
// functions: 5.3 CPU seconds to compile the package, 2.3 in this form
// (docs/benchmarks.md, "Building tick"). Comments and the interface
// wrappers are kept as extract wrote them; an entry of another shape is an
// error, not something to guess at.
func compact(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	ast.Inspect(f, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || err != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return err == nil
		}
		if ix, ok := as.Lhs[0].(*ast.IndexExpr); !ok || !isIdent(ix.X, "Symbols") {
			return true
		}
		lit, ok := as.Rhs[0].(*ast.CompositeLit)
		if !ok || lit.Type == nil {
			err = fmt.Errorf("%s: a table that is not a map literal", fset.Position(as.Pos()))
			return false
		}
		edits = append(edits, edit{off(lit.Type.Pos()), off(lit.Lbrace) + 1, "table([]entry{"})
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			x, variable := symbolValue(kv)
			if !ok || x == nil {
				err = fmt.Errorf("%s: an entry of unknown shape: %s", fset.Position(el.Pos()), text(el))
				return false
			}
			val := text(x)
			if variable {
				val = "variable{" + val + "}"
			}
			edits = append(edits, edit{off(kv.Pos()), off(kv.End()), "{" + text(kv.Key) + ", " + val + "}"})
		}
		edits = append(edits, edit{off(lit.Rbrace), off(lit.Rbrace) + 1, "})"})
		return false
	})
	if err != nil {
		return nil, err
	}
	out := slices.Clone(src)
	for _, e := range slices.Backward(edits) {
		out = slices.Concat(out[:e.from], []byte(e.text), out[e.to:])
	}
	if !bytes.Contains(out, []byte("reflect.")) {
		out = bytes.Replace(out, []byte("\t\"reflect\"\n"), nil, 1) // the tables were its only use
	}
	return format.Source(out)
}

// symbolValue returns X of an entry's value reflect.ValueOf(X), or of
// reflect.ValueOf(X).Elem() (a variable: X is its address) with variable
// set; nil for any other shape.
func symbolValue(kv *ast.KeyValueExpr) (x ast.Expr, variable bool) {
	if kv == nil {
		return nil, false
	}
	v := kv.Value
	if c, ok := v.(*ast.CallExpr); ok && len(c.Args) == 0 {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Elem" {
			v, variable = sel.X, true
		}
	}
	c, ok := v.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil, false
	}
	if sel, ok := c.Fun.(*ast.SelectorExpr); !ok || !isIdent(sel.X, "reflect") || sel.Sel.Name != "ValueOf" {
		return nil, false
	}
	return c.Args[0], variable
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
