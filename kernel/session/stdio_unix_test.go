//go:build unix

package session

import (
	"strings"
	"testing"
)

// os.Stdout and os.Stderr are *os.File in cell code, as in Go, and what a
// cell writes to them arrives in order with fmt's prints, whole, in the
// cell that wrote it.
func TestStdioFiles(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		name, code, want, wantErr string
	}{
		{"WriteString and fmt in order", `import ("fmt"; "os"; "strings")
os.Stdout.WriteString("one\n")
fmt.Println("two")
fmt.Fprintln(os.Stdout, "three")
os.Stdout.Write([]byte("four\n"))
fmt.Print("five\n")`, "one\ntwo\nthree\nfour\nfive\n", ""},
		{"a *os.File variable", `func emit(f *os.File, s string) { f.WriteString(s) }
out := os.Stdout
emit(out, "via file\n")
emit(os.Stderr, "to stderr\n")`, "via file\n", "to stderr\n"},
		{"more than the pipe holds", `big := strings.Repeat("x", 1<<20) + "\n"
os.Stdout.WriteString(big)
fmt.Println("after")`, strings.Repeat("x", 1<<20) + "\nafter\n", ""},
		{"the last write of a cell stays in it", `os.Stdout.WriteString("last")`, "last", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, rec := exec(t, s, 1, c.code)
			if res.Err != nil {
				t.Fatalf("error: %v", res.Err)
			}
			if got := rec.Text("stdout"); got != c.want {
				if len(got) > 200 {
					got = got[:100] + "…" + got[len(got)-100:]
				}
				t.Errorf("stdout %q, want %q", got, c.want)
			}
			if got := rec.Text("stderr"); got != c.wantErr {
				t.Errorf("stderr %q, want %q", got, c.wantErr)
			}
		})
	}
}
