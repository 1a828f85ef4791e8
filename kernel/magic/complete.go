package magic

import (
	"regexp"
	"sort"
	"strings"

	"github.com/tick-kernel/tick/kernel/session"
)

// optionRe finds the options a magic's help documents (-n, --check).
var optionRe = regexp.MustCompile(`(?:^|[\s\[(|` + "`" + `])(--?[a-zA-Z][a-zA-Z0-9-]*)`)

// completeOption completes an option of the magic on the cursor's line
// (`%timeit --ch`): the options its help documents. ok is false when
// the cursor is not on an option of a magic line.
func (r *Runner) completeOption(code string, cursor int) (c session.Completion, ok bool) {
	lineStart := strings.LastIndexByte(code[:cursor], '\n') + 1
	line := code[lineStart:cursor]
	trimmed := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(trimmed, "%") {
		return c, false
	}
	word := line[strings.LastIndexAny(line, " \t")+1:]
	if !strings.HasPrefix(word, "-") || strings.Contains(word, "=") {
		return c, false
	}
	name := strings.TrimLeft(strings.Fields(trimmed)[0], "%")
	var m *Magic
	for _, x := range r.Magics() {
		if x.Name == name {
			x := x
			m = &x
		}
	}
	if m == nil {
		return c, false
	}
	seen := map[string]bool{}
	var opts []string
	for _, sub := range optionRe.FindAllStringSubmatch(m.Help, -1) {
		if o := sub[1]; strings.HasPrefix(o, word) && !seen[o] {
			seen[o] = true
			opts = append(opts, o)
		}
	}
	sort.Strings(opts)
	c = session.Completion{Matches: opts, Start: cursor - len(word), End: cursor}
	for range opts {
		c.Details = append(c.Details, session.Detail{Kind: "magic", Signature: "option of %" + name})
	}
	return c, true
}
