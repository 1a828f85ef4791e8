package std

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// io.Copy takes the source's WriteTo and the destination's ReadFrom when
// they have one, as compiled Go does (yaegi's _test/issue-1425.go): the
// interpreted types here count which path io.Copy took.
func TestComposedWrappersKeepWriteToAndReadFrom(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"reader with WriteTo", `
type R struct{ r io.Reader }
func (x R) Read(p []byte) (int, error) { return x.r.Read(p) }
func (x R) WriteTo(w io.Writer) (int64, error) { used = "WriteTo"; return io.Copy(w, x.r) }
func run() string { io.Copy(io.Discard, R{strings.NewReader("hello")}); return used }`, "WriteTo"},
		{"writer with ReadFrom", `
type W struct{}
func (W) Write(p []byte) (int, error) { return len(p), nil }
func (W) ReadFrom(r io.Reader) (int64, error) { used = "ReadFrom"; return io.Copy(io.Discard, r) }
func run() string { io.Copy(W{}, io.LimitReader(strings.NewReader("hello"), 5)); return used }`, "ReadFrom"},
		{"plain reader", `
type R struct{ r io.Reader }
func (x R) Read(p []byte) (int, error) { used = "Read"; return x.r.Read(p) }
func run() string { io.Copy(io.Discard, R{strings.NewReader("hello")}); return used }`, "Read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
			if err := i.Use(Symbols); err != nil {
				t.Fatal(err)
			}
			src := "package main\nimport (\"io\"; \"strings\")\nvar used string\n" + tc.src
			if _, err := i.Eval(src); err != nil {
				t.Fatal(err)
			}
			v, err := i.Eval("run()")
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != tc.want {
				t.Errorf("io.Copy used %q, want %q", got, tc.want)
			}
		})
	}
}
