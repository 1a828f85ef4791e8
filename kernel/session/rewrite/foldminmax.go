package rewrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"reflect"
)

// foldMinMax (pass fold-min-max) replaces each min or max call of untyped
// constants by the constant it evaluates to: min(3, 2.5) is (2.5). The
// prelude's generic min and max handle calls with a typed argument, but
// yaegi cannot infer their type parameter from untyped constants.
func foldMinMax(u *Unit) {
	if u.Decls != nil {
		ReplaceExprs(u.Decls, foldCall)
	}
	body := &ast.BlockStmt{List: u.Stmts}
	ReplaceExprs(body, foldCall)
	u.Stmts = body.List
	if u.Value != nil {
		holder := &ast.ExprStmt{X: u.Value}
		ReplaceExprs(holder, foldCall)
		u.Value = holder.X
	}
}

// foldCall returns the constant a min or max call of untyped constants
// evaluates to, or nil when e is not such a call.
func foldCall(e ast.Expr) ast.Expr {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := c.Fun.(*ast.Ident)
	if !ok || id.Name != "min" && id.Name != "max" || len(c.Args) == 0 {
		return nil
	}
	defer floatFirst(c) // when not folded: max(1.5, x)
	var best constant.Value
	var bestExpr ast.Expr
	float := false
	for _, a := range c.Args {
		v := constValue(a)
		if v == nil {
			return nil
		}
		float = float || v.Kind() == constant.Float
		if best == nil || id.Name == "min" && constant.Compare(v, token.LSS, best) || id.Name == "max" && constant.Compare(v, token.GTR, best) {
			best, bestExpr = v, a
		}
	}
	if float && best.Kind() == constant.Int {
		// Keep the kind of the most general operand: min(1, 2.5) is 1.0.
		bestExpr = &ast.BinaryExpr{X: bestExpr, Op: token.ADD, Y: &ast.BasicLit{Kind: token.FLOAT, Value: "0.0"}}
	}
	out := &ast.ParenExpr{X: bestExpr}
	SetPos(out, c.Pos())
	return out
}

// constValue evaluates an untyped constant expression of literals.
func constValue(e ast.Expr) constant.Value {
	switch x := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil
		}
		return v
	case *ast.ParenExpr:
		return constValue(x.X)
	case *ast.UnaryExpr:
		if v := constValue(x.X); v != nil && (x.Op == token.SUB || x.Op == token.ADD) {
			return constant.UnaryOp(x.Op, v, 0)
		}
	}
	return nil
}

// ReplaceExprs calls f on every expression under n (children first) and
// replaces the expression by f's result when it is not nil.
func ReplaceExprs(n any, f func(ast.Expr) ast.Expr) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	exprType := reflect.TypeOf((*ast.Expr)(nil)).Elem()
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if !fv.CanSet() {
			continue
		}
		switch {
		case fv.Kind() == reflect.Interface && !fv.IsNil():
			ReplaceExprs(fv.Elem().Interface(), f)
			if fv.Type() == exprType {
				if r := f(fv.Interface().(ast.Expr)); r != nil {
					fv.Set(reflect.ValueOf(r))
				}
			}
		case fv.Kind() == reflect.Pointer:
			ReplaceExprs(fv.Interface(), f)
		case fv.Kind() == reflect.Slice:
			for j := 0; j < fv.Len(); j++ {
				el := fv.Index(j)
				if el.Kind() == reflect.Interface && !el.IsNil() {
					ReplaceExprs(el.Elem().Interface(), f)
					if el.Type() == exprType {
						if r := f(el.Interface().(ast.Expr)); r != nil {
							el.Set(reflect.ValueOf(r))
						}
					}
				} else if el.Kind() == reflect.Pointer {
					ReplaceExprs(el.Interface(), f)
				}
			}
		}
	}
}
