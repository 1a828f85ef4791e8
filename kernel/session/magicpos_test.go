package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/session"
)

// nullSink drops a cell's output.
type nullSink struct{}

func (nullSink) Stream(string, string) {}
func (nullSink) Publish(display.Data)  {}
func (nullSink) Update(display.Data)   {}
func (nullSink) Clear(bool)            {}

// A statement of a timing magic that does not compile is reported at its
// own position in the cell (the magic line, or the body's lines), never at
// a line of the loop the session wraps it in; so is a panic in it.
func TestMagicCompileErrorPositions(t *testing.T) {
	s, err := session.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := magic.Register(s); err != nil {
		t.Fatal(err)
	}
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
			res := s.Execute(context.Background(), session.Cell{Code: tc.code, Count: 17}, nullSink{})
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
