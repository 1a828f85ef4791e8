package notebook

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"html"
	"image/png"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// imgSrc finds every <img> tag's src attribute in the page.
var imgTag = regexp.MustCompile(`(?s)<img\b[^>]*>`)
var srcAttr = regexp.MustCompile(`\bsrc="([^"]*)"`)

// pagePNGs returns the decoded PNG payloads of the page's <img> tags.
func pagePNGs(t *testing.T, page string) []string {
	t.Helper()
	var got []string
	for _, tag := range imgTag.FindAllString(page, -1) {
		m := srcAttr.FindStringSubmatch(tag)
		if m == nil {
			t.Errorf("img without src: %s", tag)
			continue
		}
		b64, ok := strings.CutPrefix(m[1], "data:image/png;base64,")
		if !ok {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Errorf("img payload is not base64: %v", err)
			continue
		}
		if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
			t.Errorf("img payload is not a PNG: %v", err)
		}
		got = append(got, string(raw))
	}
	sort.Strings(got)
	return got
}

// notebookPNGs returns the decoded image/png outputs of nb.
func notebookPNGs(t *testing.T, nb *Notebook) []string {
	t.Helper()
	var want []string
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if s, ok := o.Data.Text("image/png"); ok {
				raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
				if err != nil {
					t.Fatalf("notebook image is not base64: %v", err)
				}
				want = append(want, string(raw))
			}
		}
	}
	sort.Strings(want)
	return want
}

func TestHTMLContainsEveryImage(t *testing.T) {
	nb := codeNotebook("png - a\nout between\npng - abcd", "show - text", "png fig abcdefg\nupdate fig replaced")
	// Cell 3's image is replaced by text; cell 4 has an image next to HTML.
	nb.Cells = append(nb.Cells, &Cell{Type: Code, Source: "png - abcdefghij"})
	if err := Execute(context.Background(), nb, newFake(), Options{}); err != nil {
		t.Fatal(err)
	}
	nb.Cells[3].Outputs[0].Data["text/html"] = "<p>html beside the image</p>"
	want := notebookPNGs(t, nb)
	if len(want) != 3 {
		t.Fatalf("test notebook has %d PNG outputs, want 3", len(want))
	}
	// As in the classic Notebook, HTML ranks above PNG: cell 4 shows its HTML.
	raw, _ := base64.StdEncoding.DecodeString(nb.Cells[3].Outputs[0].Data["image/png"].(string))
	for i, w := range want {
		if w == string(raw) {
			want = append(want[:i], want[i+1:]...)
			break
		}
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	got := pagePNGs(t, page.String())
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("page has %d PNG images, notebook has %d (or their bytes differ)", len(got), len(want))
	}
	if !strings.Contains(page.String(), "<p>html beside the image</p>") {
		t.Errorf("the HTML of cell 4 is not shown")
	}
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// The page ranks MIME types as the classic Notebook does, never shows JSON
// raw when a text form is there, sizes images by their metadata and
// highlights Go.
func TestHTMLRanking(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(testPNG(4))
	nb := &Notebook{Cells: []*Cell{{Type: Code, Source: "%timeit -n 3 y = f(x)\nfor i := range 3 {\n\tfmt.Println(i) // count\n}", ExecutionCount: intPtr(1),
		Outputs: []*Output{
			{Type: DisplayData, Data: MIMEBundle{"text/plain": "1.06 µs ± 27.1 ns per loop", "text/html": "<pre>1.06 µs ± 27.1 ns per loop</pre>",
				"application/vnd.tick.timing.v1+json": json.RawMessage(`{"version": 1, "secret": "raw-json-shown"}`)}},
			{Type: DisplayData, Data: MIMEBundle{"image/png": png, "text/plain": "[chart: a histogram]"},
				Metadata: map[string]json.RawMessage{"image/png": json.RawMessage(`{"width": 480, "height": 336}`)}},
			{Type: DisplayData, Data: MIMEBundle{"application/json": json.RawMessage(`{"a": 1}`), "text/plain": "{a: 1}"}},
		}}}}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	for _, want := range []string{"<pre>1.06 µs ± 27.1 ns per loop</pre>", `width="480" height="336" alt="[chart: a histogram]"`,
		"<pre>{a: 1}</pre>", `<span class="magic">%timeit -n 3 y = f(x)</span>`, `<span class="k">for</span>`, `<span class="c1">// count</span>`, ".chroma"} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(s, "raw-json-shown") || strings.Contains(s, "&#34;a&#34;") {
		t.Errorf("JSON shown raw")
	}
	if code := html.UnescapeString(tagRe.ReplaceAllString(s[strings.Index(s, "<pre class=\"source"):], "")); !strings.HasPrefix(code, nb.Cells[0].Source) {
		t.Errorf("highlighting changed the code's text: %q", code[:80])
	}
}

func TestHTMLRendering(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{
		{Type: Markdown, Source: "# Timing *basics*\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"},
		{Type: Code, Source: "if a < b && c > d { fmt.Println(\"<script>\") }", ExecutionCount: intPtr(7),
			Outputs: []*Output{
				{Type: Stream, Name: "stdout", Text: "\x1b[1mbold\x1b[0m <tag>\n10%\r50%\r100%\n"},
				{Type: ErrorOutput, EName: "Panic", EValue: "boom", Traceback: []string{"\x1b[31mPanic\x1b[0m: boom"}},
				{Type: DisplayData, Data: MIMEBundle{"text/markdown": "**strong**", "text/plain": "strong"}},
				{Type: DisplayData, Data: MIMEBundle{"image/svg+xml": "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"3\"/></svg>"}},
				{Type: ExecuteResult, Data: MIMEBundle{"text/plain": "a < b"}, ExecutionCount: intPtr(7)},
			}},
	}}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	for _, want := range []string{
		"<title>Timing *basics*</title>",
		"<h1>Timing <em>basics</em></h1>",
		"<table>",
		"In[7]:",
		"Out[7]:",

		"bold &lt;tag&gt;\n100%\n",
		`<pre class="output error"><b class="ename">Panic:</b> boom</pre>`,
		"<strong>strong</strong>",
		"<circle r=\"3\"/>",
		"<pre>a &lt; b</pre>",
		"<style>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("page contains terminal escapes")
	}
	if strings.Contains(s, "<script>") || strings.Contains(s, "<link") {
		t.Error("page is not self-contained or does not escape code")
	}
}

func TestHTMLAttachments(t *testing.T) {
	img := base64.StdEncoding.EncodeToString(testPNG(2))
	nb := &Notebook{Cells: []*Cell{{Type: Markdown, Source: "![fig](attachment:f.png)",
		Attachments: []byte(`{"f.png": {"image/png": "` + img + `"}}`)}}}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{Title: "T"}); err != nil {
		t.Fatal(err)
	}
	if got := pagePNGs(t, page.String()); len(got) != 1 || got[0] != string(testPNG(2)) {
		t.Errorf("attachment image not inlined: %d images", len(got))
	}
}

// TestHTMLPrefersHTMLHoldingItsImage: an output whose text/html holds its
// chart (text above an <img>) is shown as that HTML, so the page has the
// text and the image once.
func TestHTMLPrefersHTMLHoldingItsImage(t *testing.T) {
	png := "iVBORw0KGgo="
	nb := &Notebook{Cells: []*Cell{{Type: Code, Source: "%prof y = f()", Outputs: []*Output{{Type: DisplayData, Data: MIMEBundle{
		"text/plain": "42 kernels", "image/png": png,
		"text/html": `<pre>42 kernels</pre><img src="data:image/png;base64,` + png + `">`}}}}}}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := page.String(); !strings.Contains(s, "<pre>42 kernels</pre>") || strings.Count(s, "data:image/png;base64,"+png) != 1 {
		t.Errorf("page does not show the text and the image once:\n%s", s)
	}
}
