package session

import (
	"go/ast"
	"sort"
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The interpreter binds a call to the function it names when it compiles
// the caller: a function redefined in a later cell is not seen by the
// functions declared before that call it. So the session keeps the source
// of each function a cell declares (funcSrc), and when a cell redefines
// a function, it declares again, from their source, the earlier functions
// that call it, directly or through each other (refreshCallers).

// funcSource is the source of a top-level function a cell declared.
type funcSource struct {
	cell  int
	code  string
	calls map[string]bool // the names it calls
}

// noteFuncSources records the source of the functions of pc (before the
// rewrites) and returns their names.
func (s *Session) noteFuncSources(pc *cell.Parsed, c cell.Cell) []string {
	if pc.Decls == nil {
		return nil
	}
	var names []string
	for _, d := range pc.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || fd.Name.Name == "_" {
			continue
		}
		code := printed(pc.Fset, fd)
		calls := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok {
					calls[id.Name] = true
				}
			}
			return true
		})
		names = append(names, fd.Name.Name)
		s.mu.Lock()
		s.funcSrc[fd.Name.Name] = funcSource{cell: c.N, code: code, calls: calls}
		s.mu.Unlock()
	}
	return names
}

// refreshCallers declares again the functions of earlier cells that call
// one of redefined (transitively), callees first. A caller that no longer
// compiles is left as it was, with a note on stderr.
func (s *Session) refreshCallers(redefined []string) {
	if len(redefined) == 0 || s.refreshing {
		return
	}
	s.refreshing = true
	defer func() { s.refreshing = false }()
	s.mu.Lock()
	stale := map[string]bool{}
	for _, r := range redefined {
		stale[r] = true
	}
	declared := map[string]bool{}
	for _, r := range redefined {
		declared[r] = true
	}
	for changed := true; changed; {
		changed = false
		for name, f := range s.funcSrc {
			if stale[name] {
				continue
			}
			for callee := range f.calls {
				if stale[callee] {
					stale[name], changed = true, true
					break
				}
			}
		}
	}
	var callers []string
	for name := range stale {
		if !declared[name] {
			callers = append(callers, name)
		}
	}
	sort.Strings(callers)
	srcs := map[string]funcSource{}
	for _, name := range callers {
		srcs[name] = s.funcSrc[name]
	}
	s.mu.Unlock()
	// callees before callers: a caller's new code must bind the callee's
	// new code
	done := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if done[name] {
			return
		}
		done[name] = true
		for callee := range srcs[name].calls {
			if _, ok := srcs[callee]; ok {
				visit(callee)
			}
		}
		f := srcs[name]
		if res := s.runParsed(cell.Cell{N: f.cell, Code: f.code}, nil); res.Err != nil {
			s.emit("stderr", "note: "+name+" (cell["+strconv.Itoa(f.cell)+"]) calls a function this cell redefined, and could not be "+
				"declared again: "+strings.TrimSpace(res.Err.Value)+"; it still calls the old definition\n")
		}
	}
	for _, name := range callers {
		visit(name)
	}
}

// declaredIn returns the names of names that f declares as functions.
func declaredIn(f *ast.File, names []string) []string {
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			for _, n := range names {
				if n == fd.Name.Name {
					out = append(out, n)
				}
			}
		}
	}
	return out
}
