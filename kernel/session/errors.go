package session

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/rt"
)

// crashError is an interpreter crash (a panic inside yaegi while
// compiling), such as the "nil type" panics of constructs it lacks.
type crashError struct{ v any }

func (c *crashError) Error() string { return fmt.Sprint(c.v) }

// compileError converts a parse or compile error of the code of c.
func compileError(c cell.Cell, err error) *Error {
	var crash *crashError
	if errors.As(err, &crash) {
		if e := constantError(c, crash.v); e != nil {
			return e
		}
		return unsupportedError(c, crash.v)
	}
	var lines []string
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for i, e := range list {
			if i == 5 {
				lines = append(lines, fmt.Sprintf("(and %d more errors)", len(list)-5))
				break
			}
			lines = append(lines, cell.Message(c.N, e.Error()))
		}
	} else {
		lines = strings.Split(cell.Message(c.N, err.Error()), "\n")
	}
	if len(lines) == 0 {
		lines = []string{err.Error()}
	}
	return cell.Errorf(cell.CompileError, "%s", lines[0]).Trace(lines[1:]...)
}

// unsupportedError reports a known interpreter crash as a construct tick
// cannot run yet.
func unsupportedError(c cell.Cell, v any) *Error {
	return cell.Errorf(cell.Unsupported, "cell[%d]: this cell uses a Go construct the interpreter (yaegi) cannot compile (it crashed with %q). "+
		"Known cases: range over a function, a generic function called with untyped constants of mixed kinds, "+
		"and some uses of generics. Rewrite that construct (see docs/compatibility.md) and run the cell again", c.N, fmt.Sprint(v))
}

// explainCrash names the construct behind an Unsupported error when the
// cell shows a known one (range over a function).
func (s *Session) explainCrash(e *Error, pc *cell.Parsed) *Error {
	if !errors.Is(e, cell.Unsupported) {
		return e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var found *cell.Pos
	inspect := func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || found != nil {
			return found == nil
		}
		switch x := r.X.(type) {
		case *ast.FuncLit:
			p := pc.Pos(r.For)
			found = &p
		case *ast.Ident:
			if text, _ := s.decls.Decl(x.Name); strings.HasPrefix(text, "func ") {
				p := pc.Pos(r.For)
				found = &p
			}
		}
		return true
	}
	if pc.Decls != nil {
		ast.Inspect(pc.Decls, inspect)
	}
	for _, st := range pc.Stmts {
		ast.Inspect(st, inspect)
	}
	if found == nil {
		return e
	}
	return cell.Errorf(cell.Unsupported, "%s: range over a function (Go 1.23 iterators) is not supported by the interpreter; "+
		"call the function with a yield callback instead: seq(func(v T) bool { ...; return true })", found)
}

func interruptedError() *Error {
	return cell.Errorf(cell.Interrupted, "the cell was stopped by an interrupt; everything defined before it is kept")
}

func internalError(r any) *Error {
	return cell.Errorf(cell.RuntimeError, "internal error in the session: %v (the session goes on; please report this with the cell that caused it)", r).
		Trace(goFrames(debug.Stack())...)
}

// yaegiFrame parses a frame line printed by yaegi: "3:5: panic: main.f(...)".
var yaegiFrame = regexp.MustCompile(`^(?:\S+:)?(\d+:\d+): panic(?:: (.*))?$`)

// panicError converts a panic of running code of c.
func (s *Session) panicError(c cell.Cell, p interp.Panic) *Error {
	s.mu.Lock()
	frames := s.frames
	s.frames = nil
	s.mu.Unlock()
	switch v := p.Value.(type) {
	case rt.InterruptSignal:
		return interruptedError()
	case rt.DepthSignal:
		return cell.Errorf(cell.RuntimeError, "call depth passed %d: runaway recursion? Check the base case of the recursive function "+
			"(or raise session.Options.MaxDepth if the recursion is meant to be this deep); the session goes on", v.Depth-1)
	}
	var tb []string
	first, inFunc := "", false
	for i, f := range frames {
		if i == 20 {
			tb = append(tb, fmt.Sprintf("    ... %d more frames", len(frames)-20))
			break
		}
		m := yaegiFrame.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		where := c.N
		fn := strings.TrimSuffix(m[2], "(...)")
		fn = strings.TrimPrefix(fn, "main.")
		if n, ok := s.decls.FuncCell(strings.SplitN(fn, ".", 2)[0]); ok {
			where = n
		}
		pos := fmt.Sprintf("cell[%d]:%s", where, m[1])
		if first == "" {
			first, inFunc = pos, fn != "" && fn != "main"
		}
		if fn == "" || fn == "main" {
			tb = append(tb, "    at "+pos)
		} else {
			tb = append(tb, "    at "+pos+" in "+fn)
		}
	}
	msg := fmt.Sprint(p.Value)
	if err, ok := p.Value.(error); ok {
		msg = err.Error()
	} else if text, ok := s.ct.PanicText(rt.PlainValue(p.Value)); ok {
		msg = text
	}
	var note string
	reported := msg
	msg, note = goPanicMessage(c, msg)
	if detail := s.boundsDetail(c, msg, inFunc); detail != "" {
		msg, note = detail, fmt.Sprintf("(the interpreter reported %q, without the index and length: tick read them from the cell's variables)", reported)
	}
	if note != "" {
		tb = append([]string{"  " + note}, tb...)
	}
	if first != "" {
		// yaegi knows the function a panic unwinds through, not the
		// statement: the position is where the innermost function starts.
		msg = msg + " (in the function at " + first + ")"
	}
	if go_ := goFrames(p.Stack); len(go_) > 0 {
		tb = append(tb, "  Go frames (native code):")
		tb = append(tb, go_...)
	}
	return cell.Errorf(cell.Panic, "%s", msg).Trace(tb...)
}

// internalFrame reports whether a Go stack function belongs to the
// machinery (interpreter, reflection, runtime, this package) rather than to
// native code the user called.
func internalFrame(fn string) bool {
	for _, p := range []string{"github.com/traefik/yaegi/", "reflect.", "runtime.", "runtime/debug.", "tick/kernel.", "tick/kernel/", "github.com/tick-kernel/tick/", "main.", "panic(", "created by ", "testing."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// goFrames extracts the native frames of a goroutine stack dump: the
// function line and its file:line, without machinery frames.
func goFrames(stack []byte) []string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if fn == "" || strings.HasPrefix(fn, "goroutine ") {
			i--
			continue
		}
		if internalFrame(fn) {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(file, " +0x"); j > 0 {
			file = file[:j]
		}
		out = append(out, "    "+fn, "        "+file)
		if len(out) >= 40 {
			break
		}
	}
	return out
}

// reflectPanics maps the messages of panics raised inside the interpreter's
// reflection (where compiled Go raises a runtime error) to Go's wording, and
// says what the interpreter leaves out.
var reflectPanics = []struct{ yaegi, goMsg string }{
	{"reflect: slice index out of range", "runtime error: index out of range: a slice index is negative or not less than len"},
	{"reflect: array index out of range", "runtime error: index out of range: an array index is negative or not less than len"},
	{"reflect: string index out of range", "runtime error: index out of range: a string index is negative or not less than len"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= cap"},
	{"reflect.Value.Slice: string slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= len"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range: need 0 <= low <= high <= max <= cap"},
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference: a field was used through a nil pointer"},
	{"reflect: Method on nil interface value", "runtime error: invalid memory address or nil pointer dereference: a method was called on a nil interface value"},
	{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference: a nil func was called"},
	{"reflect: Call using zero Value argument", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
	{"reflect: call of reflect.Value.Set on zero Value", "runtime error: invalid memory address or nil pointer dereference: a nil pointer was dereferenced"},
}

// panicPos matches the position yaegi puts before some runtime panics
// ("3:7: interface conversion: ...").
var panicPos = regexp.MustCompile(`^(\d+:\d+): (interface conversion: )`)

// goPanicMessage rewrites a panic message of interpreted code the way Go
// says it. note, when set, is a line for the traceback: the interpreter's
// own message and what to do about what it leaves out.
func goPanicMessage(c cell.Cell, msg string) (string, string) {
	for _, r := range reflectPanics {
		if msg == r.yaegi {
			return r.goMsg, fmt.Sprintf("(the interpreter reported %q and does not say which value; "+
				"print the index, length or pointer before this line to see it)", msg)
		}
	}
	if m := panicPos.FindStringSubmatchIndex(msg); m != nil {
		return "runtime error: " + msg[m[4]:] + " (at " + cell.Message(c.N, msg[m[2]:m[3]]) + ")", ""
	}
	if msg == "errors: *target must be interface or implement error" {
		return msg, "errors.As cannot match a type declared in a cell when it has no fields (the interpreter cannot tell it " +
			"from any other struct{}): give the type a field, or match with errors.Is against a sentinel value " +
			"(var ErrX = errors.New(...), wrapped with %w) instead"
	}
	return msg, ""
}
