package rewrite

import (
	"flag"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

var update = flag.Bool("update", false, "rewrite the golden files in ../testdata/rewrite")

// TestGolden runs the passes on each ../testdata/rewrite/*.txtar and
// compares the source yaegi would compile with its "rewritten.go". An
// archive holds either "cell.go" (a cell; "ints" optionally names session
// globals of an integer type) or "setup" and "stmt" (the timed loop of a
// timing magic, marked as generated as the engine marks it).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/rewrite/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := rewritten(t, sections(ar))
			if *update {
				setSection(ar, "rewritten.go", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := sections(ar)["rewritten.go"]; got != want {
				t.Errorf("rewritten source differs (go test -run TestGolden -update rewrites it):\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

func sections(ar *txtar.Archive) map[string]string {
	m := map[string]string{}
	for _, f := range ar.Files {
		m[f.Name] = string(f.Data)
	}
	return m
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// rewritten parses and rewrites the archive's cell and prints the result.
func rewritten(t *testing.T, s map[string]string) string {
	t.Helper()
	opts := Options{Ints: map[string]bool{}}
	for _, name := range strings.Fields(s["ints"]) {
		opts.Ints[name] = true
	}
	code, timed := s["cell.go"], false
	if _, ok := s["stmt"]; ok {
		at := cell.Pos{Cell: 1, Line: 1, Col: 1}
		code, timed = TimedLoop("ᐩloop1", strings.TrimSpace(s["setup"]), strings.TrimSpace(s["stmt"]), at, at), true
	}
	p, err := cell.Parse(token.NewFileSet(), cell.Cell{N: 1, Code: code})
	if err != nil {
		t.Fatalf("parsing the cell: %v", err)
	}
	if timed {
		loop := TimedLoopNode(p)
		if loop == nil {
			t.Fatal("TimedLoopNode found no loop")
		}
		opts.Generated = []ast.Node{loop}
	}
	Apply(p, opts)
	return Source(p)
}

// The debug dump shows the cell after each pass, in order, and the last
// dump is the rewritten source.
func TestDump(t *testing.T) {
	var dump strings.Builder
	p, err := cell.Parse(token.NewFileSet(), cell.Cell{N: 4, Code: "for i := range 3 { _ = i }"})
	if err != nil {
		t.Fatal(err)
	}
	Apply(p, Options{Dump: &dump})
	out := dump.String()
	last := 0
	for _, pass := range Passes() {
		head := "// ---- cell[4] after " + pass.Name + "\n"
		i := strings.Index(out, head)
		if i < last {
			t.Fatalf("dump lacks %q after offset %d:\n%s", head, last, out)
		}
		last = i
	}
	if !strings.HasSuffix(out, Source(p)) {
		t.Errorf("the last dump is not the rewritten source:\n%s", out)
	}
	if !strings.Contains(out, "after range-int\n{\n\tᐩn") {
		t.Errorf("the dump after range-int does not show the rewritten loop:\n%s", out)
	}
}

// With CheckpointCall, loop checkpoints are calls (no read of the flag).
func TestCheckpointCall(t *testing.T) {
	p, err := cell.Parse(token.NewFileSet(), cell.Cell{N: 1, Code: "for {}"})
	if err != nil {
		t.Fatal(err)
	}
	Apply(p, Options{CheckpointCall: true})
	if got := Source(p); strings.Contains(got, "Stop") || !strings.Contains(got, "ᐩrt.Interrupted()") {
		t.Errorf("checkpoint by call:\n%s", got)
	}
}
