package magic_test

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/timing"
)

// TestMutatingStatementWarned: %timeit sort.Ints(data) sorts data on its
// first call and times sorting sorted data after that: the result warns
// that the statement changed data it reads, naming it, with the fix. A
// statement that sorts a copy, or only reads, does not warn.
func TestMutatingStatementWarned(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, `import ("math/rand"; "slices"; "sort")
data := make([]int, 2000)
for i := range data { data[i] = rand.Intn(1 << 20) }
orig := slices.Clone(data)
var sum int`)
	for i, c := range []struct {
		stmt string
		warn bool
	}{
		{"sort.Ints(data)", true},
		{"c := slices.Clone(orig); sort.Ints(c)", false},
		{"sum = 0; for _, v := range orig { sum += v }", false},
	} {
		k := mustRun(t, s, 2+i, "%timeit -r 7 -T 200ms --plot=none "+c.stmt)
		d := final(t, k)
		r := decodeResult(t, d)
		w, warned := warning(r, timing.WarnMutatesInput)
		if warned != c.warn {
			t.Errorf("%s: mutates-input warning %v, want %v: %v", c.stmt, warned, c.warn, r.Warnings)
			continue
		}
		text, _ := d.Bundle["text/plain"].(string)
		flat := strings.Join(strings.Fields(text), " ")
		if c.warn && (!strings.Contains(w.Message, "data differed") || !strings.Contains(w.Fix, "slices.Clone(data)") ||
			!strings.Contains(flat, "warning: the statement changes data it reads")) {
			t.Errorf("%s: the warning does not name data and the fix, or is not shown:\n%s", c.stmt, text)
		}
	}
}

func warning(r *timing.Result, k timing.WarningKind) (timing.Warning, bool) {
	for _, w := range r.Warnings {
		if w.Kind == k {
			return w, true
		}
	}
	return timing.Warning{}, false
}
