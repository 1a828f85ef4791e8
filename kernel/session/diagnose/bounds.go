package diagnose

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The interpreter raises an index or slice bounds panic inside reflection
// without the numbers Go's message has ("index out of range [5] with
// length 3"). When the panic happened in the cell's own top-level code
// (not inside a function), the session looks at the cell's index and
// slice expressions whose operands are session variables or constants:
// when exactly one of them is out of range with the variables' values,
// its numbers make Go's message.

// BoundsDetail returns Go's message for a bounds panic msg of cell c, or
// "" when the numbers cannot be known for sure.
func (d *Diagnoser) BoundsDetail(c cell.Cell, msg string, inFunc bool) string {
	isIndex := strings.HasPrefix(msg, "runtime error: index out of range: ")
	isSlice := strings.HasPrefix(msg, "runtime error: slice bounds out of range: ")
	if inFunc || !isIndex && !isSlice {
		return ""
	}
	pc, err := cell.Parse(token.NewFileSet(), c)
	if err != nil {
		return ""
	}
	g := d.scope.Globals()
	found := map[string]bool{}
	visit := func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			if isIndex {
				if d := indexDetail(g, x); d != "" {
					found[d] = true
				}
			}
		case *ast.SliceExpr:
			if isSlice && !x.Slice3 {
				if d := sliceDetail(g, x); d != "" {
					found[d] = true
				}
			}
		}
		return true
	}
	for _, st := range pc.Stmts {
		ast.Inspect(st, visit)
	}
	if pc.Value != nil {
		ast.Inspect(pc.Value, visit)
	}
	if len(found) != 1 {
		return ""
	}
	for d := range found {
		return "runtime error: " + d
	}
	return ""
}

// indexDetail is Go's message for x when it is out of range.
func indexDetail(g map[string]reflect.Value, x *ast.IndexExpr) string {
	n, kind, ok := lengthOf(g, x.X)
	i, iok := intOf(g, x.Index)
	if !ok || !iok || kind == reflect.Map {
		return ""
	}
	switch {
	case i < 0:
		return fmt.Sprintf("index out of range [%d]", i)
	case i >= int64(n.len):
		return fmt.Sprintf("index out of range [%d] with length %d", i, n.len)
	}
	return ""
}

// sliceDetail is Go's message for x[lo:hi] when it is out of range.
func sliceDetail(g map[string]reflect.Value, x *ast.SliceExpr) string {
	n, kind, ok := lengthOf(g, x.X)
	if !ok {
		return ""
	}
	lo, hi := int64(0), int64(n.len)
	if x.Low != nil {
		v, ok := intOf(g, x.Low)
		if !ok {
			return ""
		}
		lo = v
	}
	if x.High != nil {
		v, ok := intOf(g, x.High)
		if !ok {
			return ""
		}
		hi = v
		limit, what := int64(n.cap), "capacity"
		if kind == reflect.String || kind == reflect.Array {
			limit, what = int64(n.len), "length"
		}
		if hi < 0 || hi > limit {
			return fmt.Sprintf("slice bounds out of range [:%d] with %s %d", hi, what, limit)
		}
	}
	if lo < 0 {
		return fmt.Sprintf("slice bounds out of range [%d:]", lo)
	}
	if lo > hi {
		return fmt.Sprintf("slice bounds out of range [%d:%d]", lo, hi)
	}
	return ""
}

type lenCap struct{ len, cap int }

// lengthOf returns the length and capacity of the session variable e
// names (a slice, array, string, or pointer to an array).
func lengthOf(g map[string]reflect.Value, e ast.Expr) (lenCap, reflect.Kind, bool) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return lenCap{}, 0, false
	}
	v, ok := g[id.Name]
	if !ok || !v.IsValid() {
		return lenCap{}, 0, false
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Array {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		return lenCap{v.Len(), v.Cap()}, v.Kind(), true
	case reflect.String:
		return lenCap{v.Len(), v.Len()}, v.Kind(), true
	}
	return lenCap{}, v.Kind(), false
}

// intOf returns the value of e: an integer literal (maybe negated) or a
// session variable of integer type.
func intOf(g map[string]reflect.Value, e ast.Expr) (int64, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.INT {
			return 0, false
		}
		v, err := strconv.ParseInt(x.Value, 0, 64)
		return v, err == nil
	case *ast.UnaryExpr:
		if x.Op != token.SUB {
			return 0, false
		}
		v, ok := intOf(g, x.X)
		return -v, ok
	case *ast.ParenExpr:
		return intOf(g, x.X)
	case *ast.Ident:
		v, ok := g[x.Name]
		if !ok || !v.IsValid() {
			return 0, false
		}
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return v.Int(), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return int64(v.Uint()), true
		}
	}
	return 0, false
}
