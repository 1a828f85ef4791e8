package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/diagnose"
	"github.com/tick-kernel/tick/kernel/session/rewrite"
)

// A cell's top-level statements that define nothing run inside a declared
// function, ᐩtop, called at once, so that their temporaries leave yaegi's
// global frame with the call (retention.go says why): frameless cuts the
// statements into parts, runTop compiles and runs them, and a panic's
// traceback shows ᐩtop's frame as the cell's top level (topLevelFrames).

// runTop compiles and runs top-level statements of c, a piece of the
// cell, part by part (framelessParts). Every part is compiled before the
// first runs, as one block was: the interpreter sizes its global frame
// for them once, and a goroutine an earlier part started never sees the
// frame replaced under it by a later part's compile.
func (s *Session) runTop(c cell.Cell, list []ast.Stmt) *Error {
	type step struct {
		prog *interp.Program
		top  bool
	}
	var steps []step
	for i, p := range framelessParts(frameless(list)) {
		if p.wrapped {
			file, call := asDecl(p.block.List[0], fmt.Sprintf("%s%d", topFunc, i))
			prog, err := s.vm.compile(file)
			if err != nil {
				return diagnose.CompileError(c, err)
			}
			steps = append(steps, step{prog: prog})
			p.block = call
		}
		prog, err := s.vm.compile(p.block)
		if err != nil {
			return diagnose.CompileError(c, err)
		}
		steps = append(steps, step{prog, p.wrapped})
	}
	for _, st := range steps {
		run := s.vm.execute
		if st.top {
			run = s.vm.executeTop
		}
		if e := run(c, st.prog); e != nil {
			return e
		}
	}
	return nil
}

// topFunc is the name, with a number, of the functions wrapped parts run
// as (asDecl).
const topFunc = "ᐩtop"

// asDecl turns `func() { body }()`, a statement frameless made, into the
// declaration `func name() { body }` and the block `{ name() }` that calls
// it, positioned at the statement. A function literal evaluated at top
// level copies yaegi's whole global frame (its closure: a cost per cell
// that grew with the session, 130 µs → 520 µs a `1+1` cell over 10,000
// cells); a declared function runs on the global frame without a copy.
func asDecl(st ast.Stmt, name string) (*ast.File, *ast.BlockStmt) {
	lit := st.(*ast.ExprStmt).X.(*ast.CallExpr).Fun.(*ast.FuncLit)
	pos, end := lit.Pos(), lit.End()
	fd := &ast.FuncDecl{Name: &ast.Ident{NamePos: pos, Name: name}, Type: lit.Type, Body: lit.Body}
	file := &ast.File{Package: pos, Name: &ast.Ident{NamePos: pos, Name: "main"}, Decls: []ast.Decl{fd}}
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{NamePos: pos, Name: name}, Lparen: end, Rparen: end}}
	return file, block([]ast.Stmt{call})
}

// part is a block of top-level statements runTop compiles, positioned at
// its first (yaegi takes the import scope of a compiled node from its
// position): a statement frameless made (run as ᐩtop), or the statements
// between two such.
type part struct {
	block   *ast.BlockStmt
	wrapped bool
}

// framelessParts cuts the statements frameless made into parts, each
// statement it made alone.
func framelessParts(list []ast.Stmt, wrapped map[ast.Node]bool) []part {
	var parts []part
	var run []ast.Stmt
	for _, st := range list {
		if !wrapped[st] {
			run = append(run, st)
			continue
		}
		if len(run) > 0 {
			parts = append(parts, part{block: block(run)})
			run = nil
		}
		parts = append(parts, part{block: block([]ast.Stmt{st}), wrapped: true})
	}
	if len(run) > 0 {
		parts = append(parts, part{block: block(run)})
	}
	return parts
}

// probeDecl returns the value probe of x (rewrite.ValueProbe) as
// frameless and asDecl make it: the declaration of ᐩtop, which compiles
// only when x has exactly one value, and the block that calls it (run it
// with executeTop).
func probeDecl(x ast.Expr) (*ast.File, *ast.BlockStmt) {
	return asDecl(inCall([]ast.Stmt{rewrite.ValueProbe(x)}), topFunc)
}

// executeTop runs prog, the call of ᐩtop (or rewrite.ValueStmt): a
// panic's traceback shows the function's frame as the cell's top level.
func (vm *vm) executeTop(c cell.Cell, prog *interp.Program) *Error {
	vm.topLevel = true
	defer func() { vm.topLevel = false }()
	return vm.execute(c, prog)
}

// wrapperFrames turns, while executeTop runs, the frames yaegi printed
// for the function frameless made into the cell's top level
// (topLevelFrames).
func (vm *vm) wrapperFrames() {
	if !vm.topLevel {
		return
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.frames = topLevelFrames(vm.frames)
}

// topLevelFrames rewrites the frames of a panic that unwound through the
// function a wrapped part runs as: its frame ("2:1: panic: main.ᐩtop(...)")
// becomes the top level's ("2:1: panic: main(...)", as the statement
// printed before it was wrapped), and the frames after it (the call's, at
// top level) go. The value statement of rich output (rewrite.ValueStmt) is
// a function literal: its two frames, body and call, both main.func, the
// last of the list, become one top-level frame.
func topLevelFrames(frames []string) []string {
	const lit, main = "main.func(...)", "main(...)"
	for i := len(frames) - 1; i >= 0; i-- {
		if m := topFrame.FindStringSubmatchIndex(frames[i]); m != nil {
			return append(frames[:i:i], frames[i][:m[2]]+main)
		}
	}
	n := len(frames)
	if n == 0 || !strings.HasSuffix(frames[n-1], ": panic: "+lit) {
		return frames
	}
	if n >= 2 && strings.HasSuffix(frames[n-2], ": panic: "+lit) {
		n-- // the call's frame
	}
	return append(frames[:n-1:n-1], strings.TrimSuffix(frames[n-1], lit)+main)
}

// topFrame matches the frame of a function a wrapped part runs as.
var topFrame = regexp.MustCompile(`: panic: (main\.` + topFunc + `\d*\(\.\.\.\))$`)

// frameless returns the statements with each run of consecutive
// statements that define no names moved into `func() { ... }()` (the
// statements it made are in wrapped), so that their temporaries do not
// take slots of the interpreter's global frame, which keeps them for the
// rest of the session. Statements that define names (x := v, var, const,
// type) stay at top level, as does all of list when it holds a return,
// goto or label outside function literals (they would change meaning
// inside a function).
func frameless(list []ast.Stmt) (out []ast.Stmt, wrapped map[ast.Node]bool) {
	if len(list) == 0 || !wrappable(list) {
		return list, nil
	}
	wrapped = map[ast.Node]bool{}
	var run []ast.Stmt
	flush := func() {
		if len(run) > 0 {
			w := inCall(run)
			wrapped[w] = true
			out = append(out, w)
			run = nil
		}
	}
	for _, st := range list {
		if defines(st) {
			flush()
			out = append(out, st)
			continue
		}
		run = append(run, st)
	}
	flush()
	return out, wrapped
}

// defines reports whether st, a top-level statement, defines names.
func defines(st ast.Stmt) bool {
	switch x := st.(type) {
	case *ast.AssignStmt:
		return x.Tok == token.DEFINE
	case *ast.DeclStmt:
		return true
	}
	return false
}

// wrappable reports whether list has no return, goto or label outside
// function literals.
func wrappable(list []ast.Stmt) bool {
	ok := true
	for _, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt, *ast.LabeledStmt:
				ok = false
			case *ast.BranchStmt:
				if x.Tok == token.GOTO {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// inCall returns `func() { list }()`, positioned at list's first
// statement (the position of a compiled node is its import scope).
func inCall(list []ast.Stmt) ast.Stmt {
	pos, end := list[0].Pos(), list[len(list)-1].End()
	lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: end}}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: end, Rparen: end}}
}
