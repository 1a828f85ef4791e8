package magic_test

import (
	"strings"
	"testing"
)

// `name?` and `name??` page what inspection knows, as IPython does, rather
// than failing with Go's "illegal character U+003F '?'".
func TestQuestionMark(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, 1, "import \"strings\"\ntotal := 41")
	for code, want := range map[string]string{
		"total?":           "total",
		"total??":          "total",
		"?total":           "total",
		"strings.ToUpper?": "func(string) string",
		"nosuch?":          "nosuch: not found",
		"%timeit?":         "--check EXPR",
	} {
		res, _ := run(t, s, 2, code)
		if res.Err != nil || !strings.Contains(res.Page, want) {
			t.Errorf("%s: page %q err %v, want a page with %q", code, res.Page, res.Err, want)
		}
	}
	if res, _ := run(t, s, 3, "x := a ? b : c"); res.Err == nil {
		t.Errorf("a ? inside Go is still a syntax error")
	}
}
