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
// order. Items that depend on one another in a cycle keep their source
// order, together. Consecutive declarations become one file (yaegi resolves
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
// Items that depend on each other in a cycle (interface types that refer
// to one another, mutually recursive functions) keep their source order,
// together: the interpreter resolves such a group in the order a file
// gives it (yaegi corpus interface49 failed with "undefined:
// FileDescriptor" when the cycle was broken at its first item and the
// rest sorted).
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
	comp, ncomp := components(before)
	// the components form a DAG: waiting[c] counts the edges into c
	// from components not yet run; the ready component with the
	// earliest item goes next, its items in source order
	waiting := make([]int, ncomp)
	for i := range before {
		for j, b := range before[i] {
			if b && comp[i] != comp[j] {
				waiting[comp[j]]++
			}
		}
	}
	done := make([]bool, ncomp)
	order := make([]item, 0, n)
	for len(order) < n {
		pick := -1
		for j := 0; j < n && pick < 0; j++ {
			if c := comp[j]; !done[c] && waiting[c] == 0 {
				pick = c
			}
		}
		done[pick] = true
		for j := 0; j < n; j++ {
			if comp[j] != pick {
				continue
			}
			order = append(order, items[j])
			for k, b := range before[j] {
				if b && comp[k] != pick {
					waiting[comp[k]]--
				}
			}
		}
	}
	copy(items, order)
}

// components numbers the strongly connected components of the graph
// edge[i][j] (Tarjan's algorithm): comp[i] is i's component.
func components(edge [][]bool) (comp []int, count int) {
	n := len(edge)
	comp = make([]int, n)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := 0; w < n; w++ {
			if !edge[v][w] {
				continue
			}
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = count
				if w == v {
					break
				}
			}
			count++
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp, count
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
