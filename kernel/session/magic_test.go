package session

import (
	"context"
	"errors"
	"os"
	goruntime "runtime"
	"strings"
	"testing"
)

func TestMagicRegistry(t *testing.T) {
	s := newSession(t)
	var calls []*MagicCall
	echo := Magic{Name: "echo", Summary: "echo its arguments", Help: "Usage: %echo ARGS", Line: true, Cell: true,
		Run: func(_ context.Context, c *MagicCall) error {
			calls = append(calls, c)
			if c.Args == "bad" {
				return &UsageError{Magic: "echo", Option: "bad", Reason: "not accepted"}
			}
			c.Sink.Stream("stdout", c.Args+"|"+c.Body)
			return nil
		}}
	if err := s.RegisterMagic(echo); err != nil {
		t.Fatal(err)
	}
	if err := s.RegisterMagic(echo); err == nil {
		t.Error("registering a magic twice: no error")
	}
	if err := s.RegisterMagic(Magic{Name: "bad name", Line: true, Run: echo.Run}); err == nil {
		t.Error("bad magic name accepted")
	}

	res, rec := exec(t, s, 1, "%%echo a b\nline1\nline2")
	if res.Err != nil || rec.text("stdout") != "a b|line1\nline2" || !calls[0].IsCell || calls[0].Count != 1 {
		t.Errorf("cell magic: %v %q %+v", res.Err, rec.text("stdout"), calls[0])
	}
	res, rec = exec(t, s, 2, "x := 2\n%echo one\ny := x * 3\ny")
	if res.Err != nil || rec.text("stdout") != "one|" || res.Value == nil || res.Value.Bundle["text/plain"] != "6" {
		t.Errorf("line magic between Go: %v %q %v", res.Err, rec.text("stdout"), res.Value)
	}
	res, _ = exec(t, s, 3, "%echo bad")
	if res.Err == nil || res.Err.Name != "MagicError" || !strings.Contains(res.Err.Value, "bad") {
		t.Errorf("usage error: %v", res.Err)
	}
	res, _ = exec(t, s, 4, "%nosuch")
	if res.Err == nil || res.Err.Name != "MagicError" || !strings.Contains(res.Err.Value, "%lsmagic") {
		t.Errorf("unknown magic: %v", res.Err)
	}
	_, rec = exec(t, s, 5, "%lsmagic")
	for _, want := range []string{"%echo %%echo", "%env", "%help", "echo its arguments"} {
		if !strings.Contains(rec.text("stdout"), want) {
			t.Errorf("%%lsmagic output lacks %q:\n%s", want, rec.text("stdout"))
		}
	}
	for _, code := range []string{"%echo?", "%help echo", "%%echo?"} {
		res, _ = exec(t, s, 6, code)
		if res.Err != nil || !strings.Contains(res.Page, "Usage: %echo ARGS") {
			t.Errorf("%s: page %q err %v", code, res.Page, res.Err)
		}
	}
}

func TestEnvMagic(t *testing.T) {
	s := newSession(t)
	t.Cleanup(func() { os.Unsetenv("TICK_TEST_ENV") })
	if res, _ := exec(t, s, 1, "%env TICK_TEST_ENV=hello"); res.Err != nil {
		t.Fatal(res.Err)
	}
	res, _ := exec(t, s, 2, "import \"os\"\nos.Getenv(\"TICK_TEST_ENV\")")
	if res.Err != nil || res.Value.Bundle["text/plain"] != `"hello"` {
		t.Errorf("cell sees %v %v", res.Err, res.Value)
	}
	res, _ = exec(t, s, 3, "%env TICK_TEST_ENV")
	if res.Err != nil || res.Value.Bundle["text/plain"] != `"hello"` {
		t.Errorf("%%env NAME: %v %v", res.Err, res.Value)
	}
	res, _ = exec(t, s, 4, "%env TICK_NO_SUCH_VAR_X")
	if res.Err == nil || !strings.Contains(res.Err.Value, "TICK_NO_SUCH_VAR_X") {
		t.Errorf("missing var: %v", res.Err)
	}
}

func TestMagicSessionAPI(t *testing.T) {
	s := newSession(t)
	exec(t, s, 1, "total := 0\nfunc work(k int) int { return k * 2 }")
	loop, err := s.CompileLoop("k := 3", "total += work(k)")
	if err != nil {
		t.Fatal(err)
	}
	if err := loop(5); err != nil {
		t.Fatal(err)
	}
	v, err := s.Eval("total")
	if err != nil || v.Interface() != 30 {
		t.Fatalf("Eval(total) = %v, %v; want 30", v, err)
	}
	boom, err := s.CompileLoop("", "var m map[int]int; m[1] = 1")
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if err := boom(1); !errors.As(err, &e) || e.Name != "Panic" {
		t.Errorf("panicking loop: %v", err)
	}
	// With no magic running, positions are the statement's own.
	if _, err := s.CompileLoop("k := 1", "undefinedName++"); err == nil || !strings.Contains(err.Error(), "cell[1]:1:1: undefined: undefinedName") {
		t.Errorf("CompileLoop of bad code: %v, want an error at cell[1]:1:1", err)
	}
	if err := s.SetVar("data", []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	res, _ := exec(t, s, 2, "data[2] * 2")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "6" {
		t.Errorf("SetVar: %v %v", res.Err, res.Value)
	}
	if err := s.Exec("total = 1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Eval("total + 1"); v.Interface() != 2 {
		t.Errorf("after Exec: total+1 = %v", v)
	}
	if _, err := s.Eval("x := 1"); err == nil {
		t.Error("Eval of a statement: no error")
	}
}

// An interrupt during a magic ends the cell as Interrupted, whatever error
// the magic returns on its way out (a device wait, a measurement phase).
func TestMagicInterrupted(t *testing.T) {
	s := newSession(t)
	started := make(chan struct{})
	wait := Magic{Name: "wait", Line: true, Summary: "wait for an interrupt",
		Run: func(_ context.Context, c *MagicCall) error {
			close(started)
			for !c.Session.Interrupted() {
				goruntime.Gosched()
			}
			return errors.New("sync: interrupted while waiting for the device")
		}}
	if err := s.RegisterMagic(wait); err != nil {
		t.Fatal(err)
	}
	go func() { <-started; s.Interrupt() }()
	res, _ := exec(t, s, 1, "x := 41\n%wait")
	if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(res.Err.Value, "%wait was stopped by an interrupt") ||
		!strings.Contains(res.Err.Value, "waiting for the device") {
		t.Fatalf("interrupted magic: %+v", res.Err)
	}
	res, _ = exec(t, s, 2, "x + 1")
	if res.Err != nil || res.Value.Bundle["text/plain"] != "42" {
		t.Errorf("state after an interrupted magic: %v %v", res.Err, res.Value)
	}
}
