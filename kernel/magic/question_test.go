package magic_test

import (
	"strings"
	"testing"
)

// `name?` and `name??` page what inspection shows (the same text), as
// IPython does, rather than failing with Go's "illegal character U+003F
// '?'"; ?? adds the source of the cells' functions.
func TestQuestionMark(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "import \"strings\"\ntotal := 41\n// twice doubles.\nfunc twice(n int) int { return 2 * n }")
	for _, c := range []struct{ code, want, notWant string }{
		{"total?", "var total int = 41", ""},
		{"total??", "var total int = 41", ""},
		{"?total", "var total int = 41", ""},
		{"strings.ToUpper?", "func strings.ToUpper(s string) string\n\nToUpper returns s with all Unicode letters mapped to their upper case.", ""},
		{"strconv.Atoi?", "func strconv.Atoi(s string) (int, error)", ""},
		{"twice?", "func twice(n int) int\n\ntwice doubles.", "return 2 * n"},
		{"twice??", "return 2 * n", ""},
		{"nosuch?", "nosuch: not found", ""},
		{"%timeit?", "--check EXPR", ""},
	} {
		res, _ := run(t, s, 2, c.code)
		if res.Err != nil || !strings.Contains(res.Page, c.want) || c.notWant != "" && strings.Contains(res.Page, c.notWant) {
			t.Errorf("%s: page %q err %v, want a page with %q", c.code, res.Page, res.Err, c.want)
		}
		name := strings.Trim(c.code, "?")
		if in := s.Inspect(name, len(name), strings.Count(c.code, "?")-1); in.Found && in.Text != res.Page {
			t.Errorf("%s: page %q is not what inspect shows, %q", c.code, res.Page, in.Text)
		}
	}
	if res, _ := run(t, s, 3, "x := a ? b : c"); res.Err == nil {
		t.Errorf("a ? inside Go is still a syntax error")
	}
}
