package session

import (
	"strings"
	"testing"
)

func TestDisplayRouting(t *testing.T) {
	s := newSession(t)
	res, rec := exec(t, s, 1, `import "tick/display"
display.Markdown("**hi**")
h := display.HTML("<b>0</b>")
h.Update(display.Bundle{"text/html": "<b>1</b>"})
display.Clear(true)`)
	if res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	if len(rec.publish) != 2 || rec.publish[0].Bundle["text/markdown"] != "**hi**" {
		t.Fatalf("published %+v", rec.publish)
	}
	if len(rec.updates) != 1 || rec.updates[0].ID != rec.publish[1].ID || rec.updates[0].ID == "" {
		t.Errorf("updates %+v, want one with the id of the HTML output", rec.updates)
	}
	if len(rec.clears) != 1 || !rec.clears[0] {
		t.Errorf("clears %v", rec.clears)
	}
	// After the cell, the sink is no longer installed.
	_, rec2 := exec(t, s, 2, `1`)
	if len(rec.publish) != 2 || len(rec2.publish) != 0 {
		t.Errorf("output leaked across cells")
	}
}

func TestRichValues(t *testing.T) {
	s := newSession(t)
	cases := []struct{ name, code, mime, want string }{
		{"html_method", "type Tbl struct{}\nfunc (Tbl) HTML() string { return \"<table/>\" }\nTbl{}", "text/html", "<table/>"},
		{"markdown_method", "type Md int\nfunc (m Md) Markdown() string { return \"# title\" }\nMd(1)", "text/markdown", "# title"},
		{"svg_method", "type Pic struct{ W int }\nfunc (p *Pic) SVG() string { return \"<svg/>\" }\n&Pic{3}", "image/svg+xml", "<svg/>"},
		{"image", "import (\"image\"; \"image/color\")\nimg := image.NewGray(image.Rect(0, 0, 4, 4))\nimg.Set(1, 1, color.White)\nimg", "image/png", "\x89PNG"},
		{"string_quoted", "\"q\"", "text/plain", `"q"`},
		{"no_value_for_void_call", "func void() {}\nvoid()", "", ""},
	}
	for i, c := range cases {
		res, _ := exec(t, s, i+1, c.code)
		if res.Err != nil {
			t.Errorf("%s: %v", c.name, res.Err.Traceback)
			continue
		}
		if c.mime == "" {
			if res.Value != nil {
				t.Errorf("%s: value %v, want none", c.name, res.Value.Bundle)
			}
			continue
		}
		if res.Value == nil {
			t.Errorf("%s: no value", c.name)
			continue
		}
		got := res.Value.Bundle[c.mime]
		if b, ok := got.([]byte); ok {
			got = string(b)
		}
		if g, _ := got.(string); !strings.HasPrefix(g, c.want) {
			t.Errorf("%s: %s = %q, want prefix %q (bundle %v)", c.name, c.mime, got, c.want, res.Value.Bundle)
		}
		if res.Value.Bundle["text/plain"] == nil {
			t.Errorf("%s: no text/plain", c.name)
		}
	}
}
