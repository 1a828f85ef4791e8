package session

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/internal/yaegiprivate"
)

// yaegi v0.16 keeps every compiled tree in Interpreter.roots and every
// block scope in its package scope's child list; releaseCompiled empties
// both (yaegiprivate.Release). When a yaegi upgrade renames them this test fails: find what the
// new version keeps (a heap profile of TestTrivialCellsRetainNoMemory in
// kernel/app) and update package yaegiprivate.
func TestReleaseCompiledFindsYaegisLists(t *testing.T) {
	if !yaegiprivate.Releases() {
		t.Fatal("interp.Interpreter has no roots []*node / scopes map[string]*scope with a child list: the session cannot release compiled code")
	}
	s := newSession(t)
	for i := range 5 {
		if res, _ := exec(t, s, i+1, "1+1"); res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	ip := reflect.ValueOf(s.vm.ip).Elem()
	if n := ip.FieldByName("roots").Len(); n != 0 {
		t.Errorf("yaegi still holds %d compiled roots after the cells", n)
	}
	main := ip.FieldByName("scopes").MapIndex(reflect.ValueOf("main"))
	if n := main.Elem().FieldByName("child").Len(); n != 0 {
		t.Errorf("package main's scope still lists %d block scopes", n)
	}
}

// frameless moves runs of statements that define nothing into a function
// call; definitions stay at top level; a return, goto or label keeps the
// whole list as it is.
func TestFrameless(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"fmt.Println(1)", "func() { fmt.Println(1) }()"},
		{"a = 1; b = 2", "func() { a = 1; b = 2 }()"},
		{"x := 1; fmt.Println(x); y := x; y++; z = y", "x := 1; func() { fmt.Println(x) }(); y := x; func() { y++; z = y }()"},
		{"var v int; for i := 0; i < 3; i++ { v += i }", "var v int; func() { for i := 0; i < 3; i++ { v += i } }()"},
		{"f := func() int { return 1 }; g(f)", "f := func() int { return 1 }; func() { g(f) }()"},
		{"go func() { return }()", "func() { go func() { return }() }()"},
		{"if done { return }; f()", "if done { return }; f()"},
		{"goto L; f(); L: g()", "goto L; f(); L: g()"},
		{"L: for { break L }", "L: for { break L }"},
	} {
		out, _ := frameless(parseStmts(t, tc.in))
		got := printStmts(t, out)
		want := printStmts(t, parseStmts(t, tc.want))
		if got != want {
			t.Errorf("frameless(%s)\n got %s\nwant %s", tc.in, got, want)
		}
	}
}

func parseStmts(t *testing.T, src string) []ast.Stmt {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\nfunc _() {\n"+src+"\n}", 0)
	if err != nil {
		t.Fatal(err)
	}
	return f.Decls[0].(*ast.FuncDecl).Body.List
}

func printStmts(t *testing.T, list []ast.Stmt) string {
	t.Helper()
	var b strings.Builder
	for _, st := range list {
		if err := printer.Fprint(&b, token.NewFileSet(), st); err != nil {
			t.Fatal(err)
		}
		b.WriteString("; ")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Cells run frameless keep Go's meaning: definitions are the session's,
// assignments reach session variables, closures and loops behave, the
// value is the last expression's, and a panic's traceback reads as before
// (no frame of the harness's function, the cell's own line).
func TestFramelessCellsKeepTheirMeaning(t *testing.T) {
	s := newSession(t)
	steps := []struct{ code, out, value, errText string }{
		{code: `import "fmt"`},
		{code: "n := 2\ntotal := 0\nfor i := range 3 { total += i * n }\nfmt.Println(total)", out: "6\n"},
		{code: "total = 40\ntotal += n\nfmt.Print(total)", out: "42"},
		{code: "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfmt.Print(fs[0](), fs[2]())", out: "0 2"},
		{code: "total", value: "42"},
		{code: "func boom(x int) { panic(x) }"},
		{code: "fmt.Print(1)\nboom(7)", out: "1", errText: "Panic: 7 (in the function at cell[6]:1:18)\n    at cell[6]:1:18 in boom\n    at cell[7]:2:1"},
		{code: "var a []int\n_ = a[3]", errText: "at cell[8]:2:5"},
		{code: "total", value: "42"},
	}
	for i, st := range steps {
		res, rec := exec(t, s, i+1, st.code)
		if got := rec.Text("stdout"); got != st.out {
			t.Errorf("cell %d %q: stdout %q, want %q", i+1, st.code, got, st.out)
		}
		if st.errText != "" {
			if res.Err == nil {
				t.Errorf("cell %d %q: no error, want %q", i+1, st.code, st.errText)
				continue
			}
			tb := res.Err.Error() + "\n" + strings.Join(res.Err.Traceback[1:], "\n")
			if !strings.Contains(tb, st.errText) || strings.Contains(tb, "in func") || strings.Contains(tb, "ᐩ") {
				t.Errorf("cell %d %q: error\n%s\nwant it to contain\n%s\nand no frame of a func literal", i+1, st.code, tb, st.errText)
			}
			continue
		}
		if res.Err != nil {
			t.Errorf("cell %d %q: %v", i+1, st.code, res.Err)
			continue
		}
		if st.value != "" && (res.Value == nil || res.Value.Bundle["text/plain"] != st.value) {
			t.Errorf("cell %d %q: value %v, want %s", i+1, st.code, res.Value, st.value)
		}
	}
}

// topLevelFrames: the frame of ᐩtop (ᐩtop1, ...) is the top level's, and the frames after it
// go; for rewrite.ValueStmt, the last two frames, both main.func, are its
// body and call.
func TestTopLevelFrames(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"1:10: panic: main.f(...)", "2:1: panic: main.ᐩtop(...)", "1:1: panic: main(...)"},
			[]string{"1:10: panic: main.f(...)", "2:1: panic: main(...)"}},
		{[]string{"1:10: panic: main.func(...)", "2:5: panic: main.ᐩtop1(...)", "-: panic: main(...)"},
			[]string{"1:10: panic: main.func(...)", "2:5: panic: main(...)"}},
		{[]string{"1:10: panic: main.f(...)", "2:1: panic: main.func(...)", "2:1: panic: main.func(...)"},
			[]string{"1:10: panic: main.f(...)", "2:1: panic: main(...)"}},
		{[]string{"1:10: panic: main.func.func(...)", "2:5: panic: main.func(...)", "1:1: panic: main.func(...)"},
			[]string{"1:10: panic: main.func.func(...)", "2:5: panic: main(...)"}},
		{[]string{"2:5: panic: main.func(...)"}, []string{"2:5: panic: main(...)"}},
		{[]string{"3:1: panic: main.f(...)", "1:1: panic: main(...)"}, []string{"3:1: panic: main.f(...)", "1:1: panic: main(...)"}},
		{nil, nil},
	} {
		if got := topLevelFrames(append([]string(nil), tc.in...)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("topLevelFrames(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A cell that leaves nothing behind takes its files out of the
// interpreter's file set; a cell that declares keeps them, and its
// positions stay right after many trivial cells.
func TestTrivialCellsLeaveNoFiles(t *testing.T) {
	s := newSession(t)
	files := func() int {
		n := 0
		s.vm.ip.FileSet().Iterate(func(*token.File) bool { n++; return true })
		return n
	}
	exec(t, s, 1, "func bad() int {\n\tvar m map[string]int\n\tm[\"k\"] = 1\n\treturn 0\n}")
	first, _ := exec(t, s, 2, "bad()")
	if first.Err == nil {
		t.Fatal("bad() did not panic")
	}
	before := files()
	for i := range 200 {
		if res, _ := exec(t, s, i+3, "1+1"); res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	if got := files(); got != before {
		t.Errorf("200 cells of 1+1: %d files in the interpreter's file set, %d before", got, before)
	}
	exec(t, s, 300, "x := 1")
	if got := files(); got <= before {
		t.Errorf("a cell defining x left no file (%d files, %d before)", got, before)
	}
	res, _ := exec(t, s, 2, "bad()")
	if res.Err == nil || !strings.Contains(res.Err.Error(), "cell[1]:1:") || res.Err.Error() != first.Err.Error() {
		t.Errorf("a panic in a function of cell 1 after 200 trivial cells: %v, want %v", res.Err, first.Err)
	}
}

// leavesNothing is false for anything that can keep a node of the cell.
func TestLeavesNothing(t *testing.T) {
	for code, want := range map[string]bool{
		"1+1": true, "x = 3": true, "fmt.Println(x)\nx++": true,
		"x := 1": false, "var y int": false, "func f() {}": false, `import "fmt"`: false,
		"f = func() {}": false, "go g()": false, "defer g()": false, "type T int": false,
	} {
		pc, err := cell.Parse(token.NewFileSet(), cell.Cell{N: 1, Code: code})
		if err != nil {
			t.Fatal(err)
		}
		if got := leavesNothing(pc); got != want {
			t.Errorf("leavesNothing(%q) = %v, want %v", code, got, want)
		}
	}
}

// A large temporary of a top-level statement or of the cell's value is
// garbage once the cell ends (it stayed live in yaegi's global frame).
func TestTopLevelTemporariesAreNotKept(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, `import ("fmt"; "strings")`)
	live := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const size = 64 << 20
	for i, code := range []string{
		`fmt.Print(len(strings.Repeat("y", 64<<20)))`,
		`len(strings.Repeat("y", 64<<20))`,
		`strings.Repeat("y", 64<<20)[:3]`,
	} {
		before := live()
		if res, _ := exec(t, s, i+2, code); res.Err != nil {
			t.Fatal(res.Err)
		}
		if after := live(); after > before+size/4 {
			t.Errorf("%s: %d MB live after the cell, %d MB before: the temporary is kept", code, after>>20, before>>20)
		}
	}
}

// A trivial cell takes no slot of yaegi's global frame: the frame never
// shrinks, what its slots hold stays live, and growing it copies it whole.
// Before, three prints took nine slots a cell, a loop three.
func TestTrivialCellsTakeNoGlobalSlots(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "import \"fmt\"\nn := 1")
	slots := func() int {
		return reflect.ValueOf(s.vm.ip).Elem().FieldByName("universe").Elem().FieldByName("types").Len()
	}
	for _, code := range []string{"1+1", "n + 1", `fmt.Print(""); fmt.Print(""); fmt.Print("")`, "n++\nfmt.Sprint(n)", "for i := 0; i < 2; i++ { n += i }"} {
		exec(t, s, 2, code)
		before := slots()
		for i := range 20 {
			if res, _ := exec(t, s, i+3, code); res.Err != nil {
				t.Fatal(res.Err)
			}
		}
		if got := slots(); got != before {
			t.Errorf("20 cells of %q: the global frame grew from %d to %d slots", code, before, got)
		}
	}
}

// BenchmarkCellDrift measures a `1+1` cell in a fresh session and after
// 10,000 cells (run with -benchtime 1000x: the loop's own cells add to the
// session): yaegi's global frame, copied when it grows or when a function
// literal is evaluated at top level, made late cells slower (issue 17,
// retention.go).
func BenchmarkCellDrift(b *testing.B) {
	for _, after := range []int{0, 10000} {
		b.Run(fmt.Sprintf("after=%d", after), func(b *testing.B) {
			s := newSession(b)
			sink := &sinktest.Recorder{}
			for i := range after {
				s.Execute(context.Background(), Cell{Code: "1+1", Count: i + 1}, sink)
				sink.Reset()
			}
			for b.Loop() {
				s.Execute(context.Background(), Cell{Code: "1+1", Count: after + 1}, sink)
				sink.Reset()
			}
		})
	}
}
