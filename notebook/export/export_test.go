package export_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/notebook"
	"github.com/tick-kernel/tick/notebook/export"
)

func read(t *testing.T, path string) *notebook.Notebook {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	nb, err := notebook.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// runNotebook runs the code cells in one tick session and returns what a
// reader sees as text: each cell's stdout, then its value's text/plain.
func runNotebook(t *testing.T, nb *notebook.Notebook) string {
	t.Helper()
	r, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	n := 0
	for _, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		rec := &sinktest.Recorder{}
		res := r.Execute(context.Background(), session.Cell{Code: c.Source, Count: n}, rec)
		if res.Err != nil {
			t.Fatalf("cell %d: %v", n, res.Err)
		}
		out.WriteString(rec.Text("stdout"))
		if res.Value != nil {
			if s, ok := res.Value.Bundle["text/plain"].(string); ok {
				out.WriteString(s + "\n")
			}
		}
	}
	return out.String()
}

// goRun writes the program into a module that uses this clone of tick and
// runs it with go run.
func goRun(t *testing.T, prog *export.Program, args ...string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module exported\n\ngo 1.22\n"
	if prog.TickImports {
		mod += "\nrequire " + export.Module + " v0.0.0\n\nreplace " + export.Module + " => " + root + "\n"
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string][]byte{"go.mod": []byte(mod), "main.go": prog.Source} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", append([]string{"run", "-mod=mod", "."}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go run: %v\n%s\n--- main.go:\n%s", err, ee.Stderr, prog.Source)
		}
		t.Fatal(err)
	}
	return string(out)
}

// TestTourSameOutput: a tutorial-style notebook without magics, exported,
// prints under go run exactly what its cells print under tick.
func TestTourSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go program")
	}
	nb := read(t, "testdata/tour.ipynb")
	prog, err := export.Export(nb, "tour.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if prog.Magics != 0 || !prog.TickImports {
		t.Errorf("magics %d, tick imports %v", prog.Magics, prog.TickImports)
	}
	want := runNotebook(t, nb)
	got := goRun(t, prog)
	if got != want {
		t.Errorf("go run printed\n%s\nthe notebook printed\n%s\n--- main.go:\n%s", got, want, prog.Source)
	}
}

// TestTutorialCompiles: the repository's tutorial notebooks without magics
// export to programs that build and run (their outputs hold timings, so
// only their checks, which panic on failure, are compared: the run must
// succeed and print their "ok:" lines).
func TestTutorialCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go program")
	}
	nb := read(t, "../../notebooks/02-jit-capture-replay.ipynb")
	prog, err := export.Export(nb, "02-jit-capture-replay.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	out := goRun(t, prog)
	if n := strings.Count(out, "\nok: "); n < 3 {
		t.Errorf("the exported tutorial printed %d ok: lines, want 3:\n%s", n, out)
	}
}

func TestMagicsCommentedOut(t *testing.T) {
	nb := &notebook.Notebook{Cells: []*notebook.Cell{
		{Type: notebook.Code, Source: "import \"fmt\"\nx := 2\n%timeit x * x\n!ls\nfmt.Println(x)"},
		{Type: notebook.Code, Source: "%%time\nfor i := 0; i < 3; i++ {}\n"},
	}}
	prog, err := export.Export(nb, "m.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	src := string(prog.Source)
	for _, want := range []string{"// tick magic, not part of the Go program: %timeit x * x\n", "program: !ls\n", "program: %%time\n\t// | for i := 0; i < 3; i++ {}\n", "fmt.Println(x)"} {
		if !strings.Contains(src, want) {
			t.Errorf("main.go lacks %q:\n%s", want, src)
		}
	}
	if prog.Magics != 3 {
		t.Errorf("Magics = %d, want 3", prog.Magics)
	}
}

func TestCellError(t *testing.T) {
	nb := &notebook.Notebook{Cells: []*notebook.Cell{{Type: notebook.Markdown, Source: "# x"}, {Type: notebook.Code, Source: "x := 1"}, {Type: notebook.Code, Source: "func ( {"}}}
	_, err := export.Export(nb, "bad.ipynb")
	var ce *export.CellError
	if !errors.As(err, &ce) || ce.Cell != 2 || !strings.Contains(err.Error(), "code cell 2") {
		t.Errorf("err = %v", err)
	}
}
