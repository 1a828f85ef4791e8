package magic

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
)

// --check: evaluating the expression, saying what it saw when it is false,
// and refusing, before anything runs, a check that cannot see the result
// of the statement it is meant to verify.

// evalCheck evaluates a --check expression. ok is its value; when it is
// false, seen says what the check saw ("y.Float32s()[0] is 5"). Anything
// but a bool is an error that says so.
func evalCheck(h Evaluator, expr string) (ok bool, seen string, err error) {
	v, err := h.Eval(expr)
	if err != nil {
		return false, "", fmt.Errorf("--check %s: %w", expr, err)
	}
	if !v.IsValid() || v.Kind() != reflect.Bool {
		t := "no value"
		if v.IsValid() {
			t = v.Type().String()
		}
		return false, "", fmt.Errorf("--check %s: is a %s, not a bool: write a comparison such as 'y.Item() == 3'", expr, t)
	}
	if v.Bool() {
		return true, "", nil
	}
	return false, describeFalse(h, expr), nil
}

// describeFalse says why a false check is false: for a comparison, the
// value of each side that is not a literal; for a && b, the part that is
// false; otherwise that the expression is false.
func describeFalse(h Evaluator, expr string) string {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return expr + " is false"
	}
	return describe(h, expr, e)
}

func describe(h Evaluator, src string, e ast.Expr) string {
	text := func(n ast.Node) string { return src[n.Pos()-1 : n.End()-1] }
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			if ok, _ := evalTrue(h, text(x.X)); !ok {
				return describe(h, src, x.X)
			}
			return describe(h, src, x.Y)
		case token.LOR:
			return describe(h, src, x.X) + " and " + describe(h, src, x.Y)
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			var parts []string
			for _, side := range []ast.Expr{x.X, x.Y} {
				if _, lit := ast.Unparen(side).(*ast.BasicLit); lit {
					continue
				}
				parts = append(parts, text(side)+" is "+valueText(h, text(side)))
			}
			return fmt.Sprintf("%s (want %s)", strings.Join(parts, ", "), text(x))
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return text(x.X) + " is true"
		}
	}
	return text(e) + " is false"
}

// evalTrue evaluates a boolean sub-expression.
func evalTrue(h Evaluator, expr string) (bool, error) {
	v, err := h.Eval(expr)
	if err != nil || !v.IsValid() || v.Kind() != reflect.Bool {
		return false, err
	}
	return v.Bool(), nil
}

// valueText evaluates expr and renders its value on one short line.
func valueText(h Evaluator, expr string) string {
	v, err := h.Eval(expr)
	if err != nil || !v.IsValid() {
		return "?"
	}
	var s string
	if v.CanInterface() {
		s = fmt.Sprint(v.Interface())
	} else {
		s = v.String()
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// stmtNames are the identifiers a statement mentions (reads or writes,
// not after a '.'), those it assigns (the root of each left-hand side,
// ++/--, &x), and those it declares with := (or var) at its top level,
// which live only inside the timed loop.
type stmtNames struct {
	mentions, assigns, declares []string
}

// namesOf parses stmt (one or more Go statements) for stmtNames; a
// statement that does not parse gives none (the compiler reports it).
func namesOf(stmt string) stmtNames {
	n := stmtNames{mentions: identifiers(stmt)}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+stmt+"\n}", 0)
	if err != nil || len(f.Decls) == 0 {
		return n
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	ast.Inspect(body, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				n.assigns = append(n.assigns, rootIdent(l)...)
			}
		case *ast.IncDecStmt:
			n.assigns = append(n.assigns, rootIdent(x.X)...)
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				n.assigns = append(n.assigns, rootIdent(x.X)...)
			}
		}
		return true
	})
	for _, s := range body.List {
		switch x := s.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						n.declares = append(n.declares, id.Name)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						n.declares = append(n.declares, id.Name)
					}
				}
			}
		}
	}
	return n
}

// checkSees refuses a check that cannot verify stmt's result, before
// anything runs: one that reads a variable the statement declares inside
// the timed loop (it would read another one, or none), and, when shared
// (a --check applied to the --vs statement too), one that reads nothing
// the statement mentions (it would verify the other statement's result
// again). what names the statement ("the statement", "the --vs
// statement"); fix is the option that gives it a check of its own.
func checkSees(check, stmt, what, fix string, shared bool) string {
	if check == "" {
		return ""
	}
	reads := identifiers(check)
	n := namesOf(stmt)
	for _, id := range reads {
		if slices.Contains(n.declares, id) {
			return fmt.Sprintf("the check reads %s, which %s declares with := inside the timed loop, so the check would see another %s (or none): "+
				"declare %s in an earlier cell (var %s ...) and assign it in the statement (%s = ...)", id, what, id, id, id, id)
		}
	}
	// What the statement changes: what it assigns, or else (a call that
	// fills its argument) whatever it mentions.
	changes, verb := n.assigns, "assigns"
	if len(changes) == 0 {
		changes, verb = n.mentions, "mentions"
	}
	if shared && len(changes) > 0 && !slices.ContainsFunc(reads, func(id string) bool { return slices.Contains(changes, id) }) {
		return fmt.Sprintf("the check reads %s, but %s %s only %s, so the check would verify the other statement's result again: "+
			"give it a check of its own with %s", strings.Join(uniq(reads), ", "), what, verb, strings.Join(uniq(changes), ", "), fix)
	}
	return ""
}

// rootIdent is the variable an assignment target writes into: x for x,
// x.f, x[i], *x.
func rootIdent(e ast.Expr) []string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			if x.Name == "_" {
				return nil
			}
			return []string{x.Name}
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
