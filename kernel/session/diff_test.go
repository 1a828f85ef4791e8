package session

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The differential corpus: testdata/diff/*.go are small Go programs, each
// with the output it prints (its "// Output:" block). TestDiffCorpus runs
// each twice: compiled by the Go toolchain (the reference), and through a
// fresh session split into cells as a notebook user would write it — the
// declarations before main one cell per "// cell" line, then main's body,
// cut at its "// cell" lines. Both must print the expected output. A
// program marked "// Unsupported: TEXT" is one the session cannot run: its
// cell must fail with an error containing TEXT (docs/compatibility.md
// lists them).

// otherGoroutines matches a program that runs interpreted code on goroutines
// of its own: a go statement, or a callback time.AfterFunc runs on the
// timer's goroutine.
var otherGoroutines = regexp.MustCompile(`(?m)^\s*go |time\.AfterFunc\(`)

type diffProgram struct {
	name, src   string
	cells       []string
	want        string
	unsupported string
}

func parseDiffProgram(name, src string) (diffProgram, error) {
	p := diffProgram{name: name, src: src}
	lines := strings.Split(src, "\n")
	var cur []string
	flush := func() {
		if c := strings.TrimSpace(strings.Join(cur, "\n")); c != "" {
			p.cells = append(p.cells, strings.Join(cur, "\n"))
		}
		cur = nil
	}
	inMain, done := false, false
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case done:
			if strings.HasPrefix(l, "// Output:") {
				for _, o := range lines[i+1:] {
					if strings.HasPrefix(o, "//") {
						out = append(out, strings.TrimPrefix(strings.TrimPrefix(o, "//"), " "))
					}
				}
				i = len(lines)
			} else if strings.HasPrefix(l, "// Unsupported: ") {
				p.unsupported = strings.TrimPrefix(l, "// Unsupported: ")
			}
		case strings.HasPrefix(l, "package "):
		case l == "func main() {":
			flush()
			inMain = true
		case inMain && l == "}":
			flush()
			inMain, done = false, true
		case strings.TrimSpace(l) == "// cell":
			flush()
		case strings.HasPrefix(l, "// Unsupported: "):
			p.unsupported = strings.TrimPrefix(l, "// Unsupported: ")
		case inMain:
			cur = append(cur, strings.TrimPrefix(l, "\t"))
		default:
			cur = append(cur, l)
		}
	}
	if !done {
		return p, fmt.Errorf("%s: no func main() { ... } block", name)
	}
	p.want = strings.Join(out, "\n") + "\n"
	if len(out) == 0 {
		p.want = ""
	}
	return p, nil
}

func loadDiffCorpus(t *testing.T) []diffProgram {
	files, err := filepath.Glob("testdata/diff/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus (%v)", err)
	}
	var progs []diffProgram
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseDiffProgram(strings.TrimSuffix(filepath.Base(f), ".go"), string(b))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	return progs
}

// buildDiffCorpus compiles every program into one binary (one package
// each, main renamed Main, chosen by the first argument), cached in the
// temporary directory by the corpus's hash.
func buildDiffCorpus(t *testing.T, progs []diffProgram) string {
	h := sha256.New()
	for _, p := range progs {
		fmt.Fprintf(h, "%s\x00%s\x00", p.name, p.src)
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("tick-diffcorpus-%x", h.Sum(nil)[:8]))
	bin := filepath.Join(dir, "corpus")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	src := filepath.Join(dir, "src")
	os.RemoveAll(src)
	var imports, cases strings.Builder
	for i, p := range progs {
		pkg := fmt.Sprintf("p%03d", i)
		code := strings.Replace(p.src, "package main", "package "+pkg, 1)
		code = strings.Replace(code, "\nfunc main() {", "\nfunc Main() {", 1)
		if err := os.MkdirAll(filepath.Join(src, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, pkg, "main.go"), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&imports, "\t%s \"corpus/%s\"\n", pkg, pkg)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\t%s.Main()\n", p.name, pkg)
	}
	main := "package main\n\nimport (\n\t\"os\"\n" + imports.String() + ")\n\nfunc main() {\n\tswitch os.Args[1] {\n" + cases.String() + "\t}\n}\n"
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", main)
	write("go.mod", "module corpus\n\ngo 1.24\n")
	cmd := osexec.Command("go", "build", "-o", bin+".tmp", ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the corpus with go: %v\n%s", err, out)
	}
	if err := os.Rename(bin+".tmp", bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestDiffCorpus: every program prints the same through the session as
// compiled, except the ones marked unsupported, which fail with their
// error. It logs the pass rate (docs/compatibility.md).
func TestDiffCorpus(t *testing.T) {
	progs := loadDiffCorpus(t)
	var bin string
	if _, err := osexec.LookPath("go"); err == nil {
		bin = buildDiffCorpus(t, progs)
	} else {
		t.Log("no go toolchain: the programs' outputs are not checked against go run")
	}
	pass := 0
	for i, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			if bin != "" {
				out, err := osexec.Command(bin, p.name).Output()
				// the program ran as package pNNN (buildDiffCorpus): %T says pNNN.T for main.T
				out = bytes.ReplaceAll(out, []byte(fmt.Sprintf("p%03d.", i)), []byte("main."))
				if err != nil || string(out) != p.want {
					t.Errorf("compiled by go: %v\n%s--- want\n%s", err, out, p.want)
				}
			}
			if checkpointByCall && otherGoroutines.MatchString(p.src) {
				// yaegi resizes its global frame when the next piece of a
				// cell runs, without a lock that the goroutines a cell
				// started take when they read globals, and a function
				// called from another goroutine stores itself back into
				// its frame under a lock the caller's reads do not take:
				// the race detector reports those (the interpreter's, not
				// the program's).
				t.Skip("race detector build: a program with goroutines")
			}
			got, e := runDiffCells(t, p.cells)
			if p.unsupported != "" {
				if e == nil || !strings.Contains(e.Error(), p.unsupported) {
					t.Errorf("marked unsupported with %q, but the session gave %v; output:\n%s", p.unsupported, e, got)
				}
				return
			}
			if e != nil {
				t.Errorf("session: %v\n%s", e, strings.Join(e.Traceback, "\n"))
			}
			if got != p.want {
				t.Errorf("session printed\n%s--- want (go run)\n%s", got, p.want)
			} else if e == nil {
				pass++
			}
		})
	}
	t.Logf("differential corpus: %d of %d programs print the same through the session as compiled", pass, len(progs))
}

// runDiffCells runs cells on a fresh session and returns what they printed
// and the first error.
func runDiffCells(t *testing.T, cells []string) (string, *Error) {
	s := newSession(t)
	var out bytes.Buffer
	for i, c := range cells {
		res, rec := exec(t, s, i+1, c)
		out.WriteString(rec.Text("stdout"))
		if res.Err != nil {
			return out.String(), res.Err
		}
	}
	return out.String(), nil
}
