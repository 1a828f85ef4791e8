package cell

import (
	"go/ast"
	"go/token"
)

// Piece is a run of a cell compiled at once: declarations (a file) or
// top-level statements (a block).
type Piece struct {
	File  *ast.File
	Stmts []ast.Stmt
}

// item is one top-level declaration or statement, with the names it
// defines and uses.
type item struct {
	decl       ast.Decl
	stmt       ast.Stmt
	defs, uses map[string]bool
}

// Pieces orders the cell's declarations and statements for running:
// imports first, one package a piece; then every declaration and statement after the ones that
// define the names it uses (so `n := 0` then `func inc() { n++ }` and
// `x := f()` then `func f() int` both work), statements keeping their
// order. When the dependencies form a cycle, the remaining items keep
// source order. Consecutive declarations become one file (yaegi resolves
// forward references within a file); consecutive statements one block.
func (pc *Parsed) Pieces() []Piece {
	var imports []ast.Decl
	var items []item
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				imports = append(imports, d)
				continue
			}
			items = append(items, item{decl: d, defs: declDefs(d), uses: idents(d)})
		}
	}
	for _, st := range pc.Stmts {
		items = append(items, item{stmt: st, defs: stmtDefs(st), uses: idents(st)})
	}
	sortItems(items)
	var out []Piece
	// One piece per imported package: when the interpreter refuses one
	// (os/exec), the ones before it are bound, and the session records
	// them as the pieces that ran, so that a later cell's import of them is
	// not a second import ("fmt/_.go redeclared in this block" in every
	// later cell).
	for _, d := range imports {
		g := d.(*ast.GenDecl)
		for _, sp := range g.Specs {
			out = append(out, Piece{File: pc.file([]ast.Decl{&ast.GenDecl{TokPos: sp.Pos(), Tok: token.IMPORT, Specs: []ast.Spec{sp}}})})
		}
	}
	for i := 0; i < len(items); {
		j := i
		if items[i].decl != nil {
			var decls []ast.Decl
			for ; j < len(items) && items[j].decl != nil; j++ {
				decls = append(decls, items[j].decl)
			}
			out = append(out, Piece{File: pc.file(decls)})
		} else {
			var stmts []ast.Stmt
			for ; j < len(items) && items[j].stmt != nil; j++ {
				stmts = append(stmts, items[j].stmt)
			}
			out = append(out, Piece{Stmts: stmts})
		}
		i = j
	}
	return out
}

func (pc *Parsed) file(decls []ast.Decl) *ast.File {
	return &ast.File{Package: pc.Decls.Package, Name: pc.Decls.Name, Decls: decls}
}

// sortItems orders items topologically (a definer before its users;
// statements in source order), picking the earliest ready item each time.
func sortItems(items []item) {
	n := len(items)
	before := make([][]bool, n) // before[i][j]: i must run before j
	for i := range items {
		before[i] = make([]bool, n)
	}
	lastStmt := -1
	for j := range items {
		if items[j].stmt != nil {
			if lastStmt >= 0 {
				before[lastStmt][j] = true
			}
			lastStmt = j
		}
		for i := range items {
			if i == j {
				continue
			}
			for name := range items[i].defs {
				if items[j].uses[name] && !items[j].defs[name] {
					before[i][j] = true
				}
			}
		}
	}
	done := make([]bool, n)
	var order []item
	for len(order) < n {
		pick := -1
		for j := 0; j < n && pick < 0; j++ {
			if done[j] {
				continue
			}
			ready := true
			for i := 0; i < n; i++ {
				if !done[i] && before[i][j] {
					ready = false
					break
				}
			}
			if ready {
				pick = j
			}
		}
		if pick < 0 { // a cycle: the first remaining item, in source order
			for j := 0; j < n; j++ {
				if !done[j] {
					pick = j
					break
				}
			}
		}
		done[pick] = true
		order = append(order, items[pick])
	}
	copy(items, order)
}

func declDefs(d ast.Decl) map[string]bool {
	defs := map[string]bool{}
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			defs[d.Name.Name] = true
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				defs[sp.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					defs[id.Name] = true
				}
			}
		}
	}
	return defs
}

func stmtDefs(st ast.Stmt) map[string]bool {
	defs := map[string]bool{}
	switch x := st.(type) {
	case *ast.AssignStmt:
		if x.Tok == token.DEFINE {
			for _, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					defs[id.Name] = true
				}
			}
		}
	case *ast.DeclStmt:
		for k := range declDefs(x.Decl) {
			defs[k] = true
		}
	}
	return defs
}

// idents returns every identifier under n (an over-approximation of the
// names it uses: locals and field names are included).
func idents(n ast.Node) map[string]bool {
	uses := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			uses[id.Name] = true
		}
		return true
	})
	return uses
}
