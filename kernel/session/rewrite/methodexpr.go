package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"

	"golang.org/x/tools/go/ast/astutil"
)

// MethodSig returns the signature of method of the type typ, declared in
// the package at pkgPath ("" for a type declared in a cell), as a func
// type in Go source (`func(n int) (string, error)`) whose type names are
// valid in the cell (imports maps the cell's package names to their
// paths), and whether its receiver is a pointer. ok is false when the
// session does not know it.
type MethodSig func(pkgPath, typ, method string, imports map[string]string) (sig string, ptr, ok bool)

// methodExpr (pass method-expr) rewrites a method expression, `T.M` or
// `(*T).M`, as the function literal it stands for, `func(r T, a A) R {
// return r.M(a) }`: the interpreter called the method without its
// receiver argument ("reflect: Call with too many input arguments"). The
// signature comes from the cell's own method declarations, or from
// Options.MethodSig (earlier cells' methods, methods of package types).
// `T.M` of a method with a pointer receiver (a Go error) and methods whose
// signature is not known are left alone.
func methodExpr(u *Unit) {
	names := u.importNames()
	pre := func(c *astutil.Cursor) bool {
		if sel, ok := c.Node().(*ast.SelectorExpr); ok {
			if lit := u.methodLiteral(sel, names); lit != nil {
				c.Replace(lit)
				return false
			}
		}
		return true
	}
	if u.Decls != nil {
		astutil.Apply(u.Decls, pre, nil)
	}
	for i, st := range u.Stmts {
		u.Stmts[i] = astutil.Apply(st, pre, nil).(ast.Stmt)
	}
	if u.Value != nil {
		u.Value = astutil.Apply(u.Value, pre, nil).(ast.Expr)
	}
}

// methodLiteral returns the function literal for sel when it is a method
// expression with a known signature, or nil.
func (u *Unit) methodLiteral(sel *ast.SelectorExpr, imports map[string]string) ast.Expr {
	x, ptr := sel.X, false
	if p, ok := x.(*ast.ParenExpr); ok {
		x = p.X
		if st, ok := x.(*ast.StarExpr); ok {
			x, ptr = st.X, true
		}
	}
	var pkgPath, typ string
	switch t := x.(type) {
	case *ast.Ident:
		if _, isPkg := imports[t.Name]; isPkg {
			return nil
		}
		typ = t.Name
	case *ast.SelectorExpr:
		pkg, ok := t.X.(*ast.Ident)
		if !ok || imports[pkg.Name] == "" {
			return nil
		}
		pkgPath, typ = imports[pkg.Name], t.Sel.Name
	default:
		return nil
	}
	ft, recvPtr, ok := u.methodType(pkgPath, typ, sel.Sel.Name, imports)
	if !ok || recvPtr && !ptr {
		return nil
	}
	var recvType ast.Expr = cloneExpr(x, token.NoPos)
	if ptr {
		recvType = &ast.StarExpr{X: recvType}
	}
	r := u.fresh("r")
	params := []*ast.Field{{Names: []*ast.Ident{ident(r)}, Type: recvType}}
	var args []ast.Expr
	variadic := false
	for _, f := range ft.Params.List {
		names := f.Names
		if len(names) == 0 {
			names = []*ast.Ident{nil}
		}
		var field ast.Field
		field.Type = f.Type
		for range names {
			a := u.fresh("a")
			field.Names = append(field.Names, ident(a))
			args = append(args, ident(a))
		}
		_, variadic = f.Type.(*ast.Ellipsis)
		params = append(params, &field)
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(r), Sel: ident(sel.Sel.Name)}, Args: args}
	if variadic {
		call.Ellipsis = 1 // any valid position: printed as `...`
	}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if ft.Results != nil && len(ft.Results.List) > 0 {
		body = &ast.ReturnStmt{Results: []ast.Expr{call}}
	}
	lit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{List: params}, Results: ft.Results}, Body: &ast.BlockStmt{List: []ast.Stmt{body}}}
	SetPos(lit, sel.Pos())
	u.generate(lit)
	return lit
}

// methodType returns the signature of typ's method (without positions),
// from the cell's declarations or Options.MethodSig.
func (u *Unit) methodType(pkgPath, typ, method string, imports map[string]string) (*ast.FuncType, bool, bool) {
	if pkgPath == "" && u.Decls != nil {
		for _, d := range u.Decls.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != method {
				continue
			}
			rt := fd.Recv.List[0].Type
			st, ptr := rt.(*ast.StarExpr)
			if ptr {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); ok && id.Name == typ {
				ft, ok := cloneExpr(fd.Type, token.NoPos).(*ast.FuncType)
				return ft, ptr, ok
			}
		}
	}
	if u.methodSig == nil {
		return nil, false, false
	}
	sig, ptr, ok := u.methodSig(pkgPath, typ, method, imports)
	if !ok {
		return nil, false, false
	}
	e, err := parser.ParseExpr(sig)
	if err != nil {
		return nil, false, false
	}
	ft, ok := e.(*ast.FuncType)
	if !ok {
		return nil, false, false
	}
	eachPos(ft, func(ast.Node) bool { return true }, func(_ string, v reflect.Value) { v.SetInt(0) })
	return ft, ptr, true
}
