package magic

import (
	"fmt"
	"regexp"

	"github.com/tick-kernel/tick/kernel/session"
)

// questionRe matches a help request on a Go name, IPython's syntax:
// `x?`, `pkg.Name??`, `?x`.
var questionRe = regexp.MustCompile(`^\s*(\?{0,2})([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)?)(\?{0,2})\s*$`)

// question answers a cell that is only `name?` or `name??` (or `?name`)
// with the pager text the engine's Inspect gives for name (?? asks for
// more detail), instead of Go's "illegal character U+003F '?'".
func (r *Runner) question(code string) (session.Result, bool) {
	m := questionRe.FindStringSubmatch(code)
	if m == nil || (m[1] == "") == (m[3] == "") { // exactly one of prefix and suffix
		return session.Result{}, false
	}
	name := m[2]
	detail := len(m[1]+m[3]) - 1
	in := r.engine.Inspect(name, len(name), detail)
	if !in.Found {
		return session.Result{Page: fmt.Sprintf("%s: not found: no variable, function, type, constant or package member of that name "+
			"is defined in this session or in a package cells can import; check the spelling, or define it in a cell", name)}, true
	}
	return session.Result{Page: in.Text}, true
}
