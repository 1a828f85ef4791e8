package session

import (
	"strconv"
	"strings"

	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The interpreter binds a call to the function it names when it compiles
// the caller: a function redefined in a later cell is not seen by the
// functions declared before that call it. So the catalog keeps the source
// of each function a cell declares, and when a cell redefines a function,
// the session declares again, from their source, the earlier functions
// that call it, directly or through each other (refreshCallers).

// refreshCallers declares again the functions of earlier cells that call
// one of redefined (transitively), callees first. A caller that no longer
// compiles is left as it was, with a note on stderr.
func (s *Session) refreshCallers(redefined []string) {
	if len(redefined) == 0 || s.refreshing {
		return
	}
	s.refreshing = true
	defer func() { s.refreshing = false }()
	for _, f := range s.decls.Stale(redefined) {
		if res := s.runParsed(cell.Cell{N: f.Cell, Code: f.Code}, nil); res.Err != nil {
			s.emit("stderr", "note: "+f.Name+" (cell["+strconv.Itoa(f.Cell)+"]) calls a function this cell redefined, and could not be "+
				"declared again: "+strings.TrimSpace(res.Err.Value)+"; it still calls the old definition\n")
		}
	}
}
