package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cellMarker separates the cells of one corpus file.
const cellMarker = "// ----"

// corpusCell is one cell of a corpus file and what it must produce.
type corpusCell struct {
	code   string
	output *string // expected stdout (// Output:)
	value  *string // expected text/plain value (// Value: X)
	err    *string // expected substring of the error (// Error:)
}

// parseCorpus reads the cells of a corpus file: cells are separated by
// cellMarker lines; each may end with "// Output:" followed by comment
// lines (stdout), "// Value: X", or "// Error:" followed by a comment line
// that the error's "Name: Value" and traceback must contain.
func parseCorpus(text string) []corpusCell {
	var cells []corpusCell
	for _, part := range strings.Split(text, cellMarker+"\n") {
		lines := strings.Split(strings.TrimRight(part, "\n"), "\n")
		var c corpusCell
		var code []string
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			switch {
			case strings.HasPrefix(l, "// Value: "):
				v := strings.TrimPrefix(l, "// Value: ")
				c.value = &v
			case l == "// Output:" || l == "// Error:":
				var body []string
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "//") && !strings.HasPrefix(lines[i+1], "// Value: ") {
					i++
					body = append(body, strings.TrimPrefix(strings.TrimPrefix(lines[i], "//"), " "))
				}
				b := strings.Join(body, "\n")
				if l == "// Output:" {
					b += "\n"
					c.output = &b
				} else {
					c.err = &b
				}
			default:
				code = append(code, l)
			}
		}
		c.code = strings.Join(code, "\n")
		cells = append(cells, c)
	}
	return cells
}

// TestCorpus runs testdata/cells/*.cell, each file on a fresh session.
// (The files hold cell code, not Go files: a .go extension would make
// gofmt and go vet of the repository fail on them.)
// raceInYaegi are corpus entries the race detector reports inside
// yaegi v0.16.1 itself, not in tick: concurrent calls of one interpreted
// closure write and read the same node state (interp/run.go getFunc,
// lines 1890 and 1922), seen once in a fresh-clone ./test.sh beside a CPU
// hog. The entries still run, and are checked, without -race.
var raceInYaegi = map[string]string{
	"goroutines.cell": "yaegi v0.16.1's getFunc races when goroutines call one closure at once (interp/run.go:1890 vs :1922); runs without -race",
}

func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/cells/*.cell")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".cell"), func(t *testing.T) {
			if why, ok := raceInYaegi[filepath.Base(file)]; ok && raceEnabled {
				t.Skip(why)
			}
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s := newSession(t)
			for i, c := range parseCorpus(string(text)) {
				res, rec := exec(t, s, i+1, c.code)
				if c.err != nil {
					if res.Err == nil {
						t.Errorf("cell %d: no error, want %q", i+1, *c.err)
					} else if all := res.Err.Error() + "\n" + strings.Join(res.Err.Traceback, "\n"); !strings.Contains(all, *c.err) {
						t.Errorf("cell %d: error %q, want it to contain %q", i+1, all, *c.err)
					}
					continue
				}
				if res.Err != nil {
					t.Errorf("cell %d: %s", i+1, strings.Join(res.Err.Traceback, "\n"))
					continue
				}
				if c.output != nil && rec.Text("stdout") != *c.output {
					t.Errorf("cell %d: stdout %q, want %q", i+1, rec.Text("stdout"), *c.output)
				}
				if c.value != nil {
					got := "<none>"
					if res.Value != nil {
						got, _ = res.Value.Bundle["text/plain"].(string)
					}
					if got != *c.value {
						t.Errorf("cell %d: value %q, want %q", i+1, got, *c.value)
					}
				}
			}
		})
	}
}
