package rewrite

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// constIota (pass const-iota) makes every constant declaration explicit:
// a spec without values repeats the type and values of the last spec that
// has them (Go's implicit repetition), iota becomes the spec's index as an
// integer literal, and an expression of integer literals alone (`1 << (10
// * 2)`) becomes its value. The interpreter failed with "constant
// definition loop" on a typed constant whose shift count is an expression
// (Effective Go's `KB ByteSize = 1 << (10 * iota)`), and after a failed
// block it kept counting iota in the next one. Literal-only integer
// expressions are exact untyped constants in Go, so their value means the
// same; rune and float literals are left alone (their default type is not
// int).
func constIota(u *Unit) {
	u.inspect(func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			explicitConsts(g)
			return false
		}
		return true
	})
}

func explicitConsts(g *ast.GenDecl) {
	var typ ast.Expr
	var values []ast.Expr
	for i, s := range g.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		if len(vs.Values) == 0 {
			if values == nil {
				continue // an error Go reports: leave it to the interpreter
			}
			vs.Type = cloneExpr(typ, vs.Pos())
			for _, v := range values {
				vs.Values = append(vs.Values, cloneExpr(v, vs.Pos()))
			}
		} else {
			typ, values = vs.Type, nil
			for _, v := range vs.Values {
				values = append(values, cloneExpr(v, token.NoPos))
			}
		}
		for j, v := range vs.Values {
			vs.Values[j] = foldInts(withIota(v, i))
		}
	}
}

// cloneExpr returns a copy of e (nil for nil) whose positions are pos.
func cloneExpr(e ast.Expr, pos token.Pos) ast.Expr {
	if e == nil {
		return nil
	}
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), e); err != nil {
		return e
	}
	c, err := parser.ParseExpr(b.String())
	if err != nil {
		return e
	}
	// ParseExpr's positions are offsets in its own source: clear them
	eachPos(c, func(ast.Node) bool { return true }, func(_ string, v reflect.Value) { v.SetInt(0) })
	if pos.IsValid() {
		SetPos(c, pos)
	}
	return c
}

// withIota returns e with iota replaced by the literal n.
func withIota(e ast.Expr, n int) ast.Expr {
	return astutil.Apply(e, nil, func(c *astutil.Cursor) bool {
		if id, ok := c.Node().(*ast.Ident); ok && id.Name == "iota" {
			c.Replace(&ast.BasicLit{ValuePos: id.Pos(), Kind: token.INT, Value: strconv.Itoa(n)})
		}
		return true
	}).(ast.Expr)
}

// foldInts replaces each largest expression of integer literals in e that
// has an operator by its value.
func foldInts(e ast.Expr) ast.Expr {
	return astutil.Apply(e, func(c *astutil.Cursor) bool {
		x, ok := c.Node().(ast.Expr)
		if !ok {
			return true
		}
		if _, lit := x.(*ast.BasicLit); lit {
			return false
		}
		if v, ok := intValue(x); ok {
			c.Replace(intLit(v, x.Pos()))
			return false
		}
		return true
	}, nil).(ast.Expr)
}

// intValue returns the value of an expression of integer literals.
func intValue(e ast.Expr) (constant.Value, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.INT {
			return nil, false
		}
		v := constant.MakeFromLiteral(x.Value, token.INT, 0)
		return v, v.Kind() == constant.Int
	case *ast.ParenExpr:
		return intValue(x.X)
	case *ast.UnaryExpr:
		v, ok := intValue(x.X)
		if !ok || x.Op != token.ADD && x.Op != token.SUB && x.Op != token.XOR {
			return nil, false
		}
		return constant.UnaryOp(x.Op, v, 0), true
	case *ast.BinaryExpr:
		a, ok1 := intValue(x.X)
		b, ok2 := intValue(x.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		switch x.Op {
		case token.SHL, token.SHR:
			s, exact := constant.Uint64Val(b)
			if !exact || s > 1<<16 {
				return nil, false
			}
			return constant.Shift(a, x.Op, uint(s)), true
		case token.QUO, token.REM:
			if constant.Sign(b) == 0 {
				return nil, false // Go's error: leave it to the interpreter
			}
			op := x.Op
			if op == token.QUO {
				op = token.QUO_ASSIGN // integer division
			}
			return constant.BinaryOp(a, op, b), true
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			return constant.BinaryOp(a, x.Op, b), true
		}
	}
	return nil, false
}

// intLit returns v as a literal (negated when negative).
func intLit(v constant.Value, pos token.Pos) ast.Expr {
	if constant.Sign(v) < 0 {
		return &ast.ParenExpr{Lparen: pos, X: &ast.UnaryExpr{OpPos: pos, Op: token.SUB, X: intLit(constant.UnaryOp(token.SUB, v, 0), pos)}, Rparen: pos}
	}
	return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: v.ExactString()}
}
