package session

import (
	"bytes"
	"go/doc"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stdExampleSkips are the standard library examples of the bridged
// packages the session does not run, with the reason. Every other example
// with an Output comment must print it.
var stdExampleSkips = map[string]string{
	// Go 1.23 iterators: the interpreter has no range over a function
	// (docs/compatibility.md, "range over function iterators").
	"slices.ExampleAll":      "range over a function",
	"slices.ExampleBackward": "range over a function; slices.Backward is Go 1.23",
	"slices.ExampleValues":   "range over a function",
	"slices.ExampleChunk":    "range over a function; slices.Chunk is Go 1.23",
}

// TestStdExamples runs the examples of the standard library's slices, maps
// and cmp (GOROOT/src/PKG/*_test.go of the go command on PATH, the toolchain tick is built with) through the session,
// each pasted as its whole program (go/doc's playable form: package main,
// imports, func main) into the first cell of a fresh session, as a user
// copies it from pkg.go.dev, and compares what it prints with the
// example's Output comment: what `go test` checks the compiled example
// prints. The bridged generics (kernel/session/stdgo) must accept what the
// standard library accepts: named types, ~ constraints.
func TestStdExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("a session per example")
	}
	out, err := osexec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	ran := 0
	for _, pkg := range []string{"slices", "maps", "cmp"} {
		files, err := filepath.Glob(filepath.Join(goroot, "src", pkg, "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no test files in GOROOT (%v)", pkg, err)
		}
		for _, file := range files {
			fset, examples := playableExamples(t, file)
			for _, ex := range examples {
				name := pkg + ".Example" + ex.Name
				if reason, ok := stdExampleSkips[name]; ok {
					t.Logf("%s: not run: %s", name, reason)
					continue
				}
				ran++
				t.Run(name, func(t *testing.T) {
					var src bytes.Buffer
					if err := format.Node(&src, fset, ex.Play); err != nil {
						t.Fatal(err)
					}
					s := newSession(t)
					res, rec := exec(t, s, 1, src.String())
					if res.Err != nil {
						t.Fatalf("%s\n--- program\n%s", strings.Join(res.Err.Traceback, "\n"), src.String())
					}
					if got := rec.Text("stdout"); strings.TrimSpace(got) != strings.TrimSpace(ex.Output) {
						t.Errorf("printed\n%s--- want (the example's Output)\n%s--- program\n%s", got, ex.Output, src.String())
					}
				})
			}
		}
	}
	t.Logf("standard library examples run: %d", ran)
}

// playableExamples returns the examples of a test file that go/doc can
// make a whole program of and that have an Output comment.
func playableExamples(t *testing.T, file string) (*token.FileSet, []*doc.Example) {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, text, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []*doc.Example
	for _, ex := range doc.Examples(f) {
		if ex.Play != nil && (ex.Output != "" || ex.EmptyOutput) && !ex.Unordered {
			out = append(out, ex)
		}
	}
	return fset, out
}

// TestBridgedGenericsInCells: what the examples do inside main, cells do
// at the top level, where the interpreter crashed on a variable defined
// from a generic call (pass std-generics declares it first) and refused
// an untyped float first argument.
func TestBridgedGenericsInCells(t *testing.T) {
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "concat_defined_at_top_level", code: "import (\"cmp\"; \"slices\")\nx := []int{1, 2}\nall := slices.Concat(x, x, x)\nfmt.Println(all)", out: "[1 2 1 2 1 2]\n"},
		{name: "concat_result_is_a_variable", code: "all = append(all, 9)\nlen(all)", value: "7"},
		{name: "untyped_float_first", code: "import \"math\"\nfmt.Println(cmp.Compare(1.5, 2.5), cmp.Less(1.0, math.NaN()), max(1.5, math.NaN()))", out: "-1 false NaN\n"},
	})
}
