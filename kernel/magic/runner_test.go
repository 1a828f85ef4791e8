package magic_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

func TestMagicRegistry(t *testing.T) {
	s := newSession(t)
	var calls []*magic.Call
	echo := magic.Magic{Name: "echo", Summary: "echo its arguments", Help: "Usage: %echo ARGS", Line: true, Cell: true,
		Run: func(_ context.Context, c *magic.Call) (magic.Output, error) {
			calls = append(calls, c)
			if c.Args == "bad" {
				return magic.Output{}, &magic.UsageError{Magic: "echo", Option: "bad", Reason: "not accepted", Usage: "%echo ARGS"}
			}
			c.Sink.Stream("stdout", c.Args+"|"+c.Body)
			return magic.Output{}, nil
		}}
	if err := s.Register(echo); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(echo); err == nil {
		t.Error("registering a magic twice: no error")
	}
	if err := s.Register(magic.Magic{Name: "bad name", Line: true, Run: echo.Run}); err == nil {
		t.Error("bad magic name accepted")
	}

	res, k := run(t, s, 1, "%%echo a b\nline1\nline2")
	if res.Err != nil || k.Text("") != "a b|line1\nline2" || !calls[0].IsCell || calls[0].Cell != 1 {
		t.Errorf("cell magic: %v %q %+v", res.Err, k.Text(""), calls[0])
	}
	res, k = run(t, s, 2, "x := 2\n%echo one\ny := x * 3\ny")
	if res.Err != nil || k.Text("") != "one|" || res.Value == nil || res.Value.Bundle["text/plain"] != "6" {
		t.Errorf("line magic between Go: %v %q %v", res.Err, k.Text(""), res.Value)
	}
	res, _ = run(t, s, 3, "%echo bad")
	if res.Err == nil || res.Err.Name != "MagicError" || !strings.Contains(res.Err.Value, "bad") {
		t.Errorf("usage error: %v", res.Err)
	}
	res, _ = run(t, s, 4, "%nosuch")
	if res.Err == nil || res.Err.Name != "MagicError" || !strings.Contains(res.Err.Value, "%lsmagic") {
		t.Errorf("unknown magic: %v", res.Err)
	}
	_, k = run(t, s, 5, "%lsmagic")
	for _, want := range []string{"%echo %%echo", "%env", "%help", "echo its arguments"} {
		if !strings.Contains(k.Text(""), want) {
			t.Errorf("%%lsmagic output lacks %q:\n%s", want, k.Text(""))
		}
	}
	for _, code := range []string{"%echo?", "%help echo", "%%echo?"} {
		res, _ = run(t, s, 6, code)
		if res.Err != nil || !strings.Contains(res.Page, "Usage: %echo ARGS") {
			t.Errorf("%s: page %q err %v", code, res.Page, res.Err)
		}
	}
}

func TestEnvMagic(t *testing.T) {
	s := newSession(t)
	t.Cleanup(func() { os.Unsetenv("TICK_TEST_ENV") })
	if res, _ := run(t, s, 1, "%env TICK_TEST_ENV=hello"); res.Err != nil {
		t.Fatal(res.Err)
	}
	res, _ := run(t, s, 2, "import \"os\"\nos.Getenv(\"TICK_TEST_ENV\")")
	if res.Err != nil || res.Value.Bundle["text/plain"] != `"hello"` {
		t.Errorf("cell sees %v %v", res.Err, res.Value)
	}
	res, _ = run(t, s, 3, "%env TICK_TEST_ENV")
	if res.Err != nil || res.Value.Bundle["text/plain"] != `"hello"` {
		t.Errorf("%%env NAME: %v %v", res.Err, res.Value)
	}
	res, _ = run(t, s, 4, "%env TICK_NO_SUCH_VAR_X")
	if res.Err == nil || !strings.Contains(res.Err.Value, "TICK_NO_SUCH_VAR_X") {
		t.Errorf("missing var: %v", res.Err)
	}
}

// An interrupt during a magic ends the cell as Interrupted, whatever error
// the magic returns on its way out (a device wait, a measurement phase).
func TestMagicInterrupted(t *testing.T) {
	s := newSession(t)
	started := make(chan struct{})
	wait := magic.Magic{Name: "wait", Line: true, Summary: "wait for an interrupt",
		Run: func(_ context.Context, c *magic.Call) (magic.Output, error) {
			close(started)
			if err := c.Eval.Exec("for {}"); !errors.Is(err, cell.Interrupted) {
				return magic.Output{}, errors.New("the loop ended without an interrupt")
			}
			return magic.Output{}, errors.New("sync: interrupted while waiting for the device")
		}}
	if err := s.Register(wait); err != nil {
		t.Fatal(err)
	}
	go func() { <-started; s.Interrupt() }()
	res, _ := run(t, s, 1, "x := 41\n%wait")
	if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(res.Err.Value, "%wait was stopped by an interrupt") ||
		!strings.Contains(res.Err.Value, "waiting for the device") {
		t.Fatalf("interrupted magic: %+v", res.Err)
	}
	res, _ = run(t, s, 2, "x + 1")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "42" {
		t.Errorf("state after an interrupted magic: %v %v", res.Err, res.Value)
	}
}

func TestCompleteMagics(t *testing.T) {
	s := newSession(t)
	nop := func(context.Context, *magic.Call) (magic.Output, error) { return magic.Output{}, nil }
	if err := s.Register(magic.Magic{Name: "lineonly", Line: true, Run: nop}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		code      string
		want      string
		notWant   string
		wantStart int
	}{
		{"%tim", "%timeit", "", 0},
		{"%tim", "%time", "", 0},
		{"%%tim", "%%timeit", "%timeit", 0},
		{"x := 1\n  %time", "%timeit", "", 9},
		{"%", "%timeit", "", 0},
		{"%%line", "", "%%lineonly", 0},
		{"%line", "%lineonly", "", 0},
		{"x % tim", "", "%timeit", 4},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		bad := c.want != "" && !contains(got.Matches, c.want) || c.notWant != "" && contains(got.Matches, c.notWant)
		if bad || got.Start != c.wantStart || got.End != len(c.code) {
			t.Errorf("Complete(%q) = %v in [%d,%d); want %q among them, not %q, in [%d,%d)",
				c.code, got.Matches, got.Start, got.End, c.want, c.notWant, c.wantStart, len(c.code))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestMisspelledMagicHints(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"%timit x := 1": "unknown magic %timit; did you mean %timeit?",
		"%%tim\nx := 1": "unknown magic %%tim; did you mean %%time?",
	} {
		res, _ := run(t, s, 1, code)
		if res.Err == nil || !strings.Contains(res.Err.Value, want) || !strings.Contains(res.Err.Traceback[0], want) {
			t.Errorf("%q: %v, want it to contain %q", code, res.Err, want)
		}
	}
}

// A statement of a timing magic that does not compile is reported at its
// own position in the cell (the magic line, or the body's lines), never at
// a line of the loop the session wraps it in; so is a panic in it.
func TestMagicCompileErrorPositions(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct {
		name, code, want string
	}{
		{"timeit", "%timeit undefinedName + 1", "cell[17]:1:9: undefined: undefinedName"},
		{"timeit options", "%timeit -n 3 -r 2 x := undefinedName", "cell[17]:1:24: undefined: undefinedName"},
		{"timeit dashdash", "%timeit -- -undefinedName", "cell[17]:1:13: undefined: undefinedName"},
		{"timeit after code", "a := 1\n_ = a\n  %timeit undefinedName + 1", "cell[17]:3:11: undefined: undefinedName"},
		{"time", "%time _ = undefinedName", "cell[17]:1:11: undefined: undefinedName"},
		{"cell timeit body", "%%timeit\nx := 1\n_ = x + undefinedName", "cell[17]:3:9: undefined: undefinedName"},
		{"cell timeit setup", "%%timeit -n 2 y := undefinedName\n_ = y", "cell[17]:1:20: undefined: undefinedName"},
		{"cell time body", "%%time\n\n_ = 1\n  _ = undefinedName", "cell[17]:4:7: undefined: undefinedName"},
		// yaegi places a panic at the start of the function it unwinds
		// through: the timed loop's function starts at the statement.
		{"panic", "x := 1\n%timeit -n 1 -r 1 var m map[int]int; m[x] = 1", "(in the function at cell[17]:2:19)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := run(t, s, 17, tc.code)
			if res.Err == nil {
				t.Fatalf("%q: no error", tc.code)
			}
			msg := strings.Join(res.Err.Traceback, "\n")
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%q: error\n%s\nwant it to contain %q", tc.code, msg, tc.want)
			}
		})
	}
}
