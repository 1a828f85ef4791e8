package magic_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A notebook written for GoNB: script and file cells, a %% cell run as
// main's body, a continued shell line, %exec, and GoNB magics tick does
// not have answered with what to do instead.
func TestGoNBConventions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the script magics run /bin/sh")
	}
	s := newSession(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	cells := []struct{ code, out string }{
		{"import \"fmt\"", ""},
		{"%%bash\nfor i in 1 2; do echo \"line $i\"; done", "line 1\nline 2\n"},
		{"%%sh\necho from sh", "from sh\n"},
		{"%%script sh -e\necho scripted", "scripted\n"},
		{"%%writefile " + file + "\nfirst\nsecond", "Writing " + file + "\n"},
		{"%%writefile -a " + file + "\nthird", "Appending to " + file + "\n"},
		{"!cat \\\n  " + file, "first\nsecond\nthird\n"},
		{"%%\nn := 3\nfmt.Println(\"n is\", n)", "n is 3\n"},
		{"main()", "n is 3\n"},
		{"func greet() { fmt.Println(\"hi\") }", ""},
		{"%exec greet", "hi\n"},
	}
	for i, c := range cells {
		k := mustRun(t, s, i+1, c.code)
		if got := k.Text(""); got != c.out {
			t.Errorf("cell %q printed %q, want %q", c.code, got, c.out)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "first\nsecond\nthird\n" {
		t.Errorf("%s holds %q (%v)", file, b, err)
	}
	for _, c := range []struct{ code, err string }{
		{"%args -v", `%args is not a tick magic: GoNB's %args sets the program's arguments; in tick set them in a cell: os.Args = []string{"main"`},
		{"%reset", "restart the kernel"},
		{"%%script", "no program"},
		{"%%writefile", "give one path"},
		{"%frobnicate", "unknown magic %frobnicate"},
	} {
		res, _ := run(t, s, 20, c.code)
		if res.Err == nil || !strings.Contains(res.Err.Error(), c.err) {
			t.Errorf("%s: error %v, want it to contain %q", c.code, res.Err, c.err)
		}
	}
}
