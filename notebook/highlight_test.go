package notebook

import (
	"html"
	"strings"
	"testing"
)

// Highlighting marks each kind of token and never changes the text: with
// the tags removed and the entities decoded, the page shows the source as
// it is, whatever it holds (raw strings over lines, carriage returns,
// unfinished strings, stray characters, HTML).
func TestHighlightGo(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"for i := range 3 {\n\tfmt.Println(i) // count\n}",
			[]string{`<span class="k">for</span>`, `<span class="o">:=</span>`, `<span class="m">3</span>`, `<span class="c1">// count</span>`}},
		{"func f(x int) string { return `a\nb` }",
			[]string{`<span class="kd">func</span>`, `<span class="kt">int</span>`, "<span class=\"s\">`a\nb`</span>"}},
		{"/* block\r\n comment */ x := len(nil) + 'c'",
			[]string{"<span class=\"cm\">/* block\r\n comment */</span>", `<span class="nb">len</span>`, `<span class="kc">nil</span>`, `<span class="s">&#39;c&#39;</span>`}},
		{"s := \"<script>\" && a < b", []string{`<span class="s">&#34;&lt;script&gt;&#34;</span>`, `<span class="o">&lt;</span>`}},
		{"x := \"unfinished\ny := 1 # ¤", []string{`<span class="m">1</span>`}},
		{"%timeit -n 3 y = f(x)\ny", []string{`<span class="magic">%timeit -n 3 y = f(x)</span>`}},
		{"var r = `raw\r\nwith cr`\n", []string{"<span class=\"s\">`raw\r\nwith cr`</span>"}},
	} {
		got := highlightGo(tc.src)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: highlighted %q lacks %q", tc.src, got, w)
			}
		}
		if text := html.UnescapeString(tagRe.ReplaceAllString(got, "")); text != tc.src {
			t.Errorf("%q: the text became %q", tc.src, text)
		}
	}
}

func FuzzHighlightGo(f *testing.F) {
	for _, s := range []string{"for {}", "x := `a\r\nb`", "/* */ // c\n'x'", "\"open", "a<b&&c>d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !strings.Contains(src, "<") && !strings.Contains(src, ">") { // tagRe would eat a literal "<...>"
			if text := html.UnescapeString(tagRe.ReplaceAllString(highlightGo(src), "")); text != src {
				t.Errorf("%q became %q", src, text)
			}
		}
	})
}
