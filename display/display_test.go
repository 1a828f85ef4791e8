package display

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

type rec struct {
	pub, upd []Data
	clears   []bool
}

func (r *rec) Publish(d Data) { r.pub = append(r.pub, d) }
func (r *rec) Update(d Data)  { r.upd = append(r.upd, d) }
func (r *rec) Clear(w bool)   { r.clears = append(r.clears, w) }

func TestFunctions(t *testing.T) {
	r := &rec{}
	restore := Use(r)
	defer restore()
	img := image.NewRGBA(image.Rect(0, 0, 2, 3))
	img.Set(0, 0, color.White)
	cases := []struct {
		name string
		show func() *Handle
		mime string
	}{
		{"PNG", func() *Handle { return PNG([]byte("\x89PNG")) }, "image/png"},
		{"Image", func() *Handle { return Image(img) }, "image/png"},
		{"SVG", func() *Handle { return SVG("<svg/>") }, "image/svg+xml"},
		{"HTML", func() *Handle { return HTML("<b>x</b>") }, "text/html"},
		{"Markdown", func() *Handle { return Markdown("**x**") }, "text/markdown"},
		{"JSON", func() *Handle { return JSON(map[string]int{"a": 1}) }, "application/json"},
	}
	for i, c := range cases {
		h := c.show()
		if len(r.pub) != i+1 {
			t.Fatalf("%s: %d publishes, want %d", c.name, len(r.pub), i+1)
		}
		d := r.pub[i]
		if d.Bundle[c.mime] == nil || d.Bundle["text/plain"] == nil {
			t.Errorf("%s: bundle %v lacks %s or text/plain", c.name, d.Bundle, c.mime)
		}
		if d.ID == "" || d.ID != h.ID() {
			t.Errorf("%s: display id %q, handle %q", c.name, d.ID, h.ID())
		}
	}
	if png, _ := r.pub[1].Bundle["image/png"].([]byte); !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("Image: not PNG bytes")
	}
	h := HTML("<b>0%</b>")
	h.Update(Bundle{"text/html": "<b>100%</b>", "text/plain": "100%"})
	if len(r.upd) != 1 || r.upd[0].ID != h.ID() || r.upd[0].Bundle["text/html"] != "<b>100%</b>" {
		t.Errorf("update: %+v", r.upd)
	}
	if r.pub[0].ID == r.pub[1].ID {
		t.Error("two outputs share a display id")
	}
	Clear(true)
	if len(r.clears) != 1 || !r.clears[0] {
		t.Errorf("clears %v", r.clears)
	}
}

func TestNoPublisher(t *testing.T) {
	restore := Use(nil)
	defer restore()
	h := Markdown("dropped")
	h.Update(Bundle{"text/plain": "x"})
	Clear(false)
	if h.ID() == "" {
		t.Error("handle without id")
	}
}

// gophernotes' API: MIMEMap is a Bundle, Display shows a bundle, Data or
// text, and shows nothing again for what a display function already showed.
func TestGophernotesAliases(t *testing.T) {
	r := &rec{}
	defer Use(r)()
	Display(MIMEMap{"text/html": "<i>hi</i>", "text/plain": "hi"})
	h := HTML("<b>once</b>")
	Display(h)
	Display("plain")
	Math(`e^{i\pi}+1=0`)
	if len(r.pub) != 4 {
		t.Fatalf("published %d outputs, want 4: %+v", len(r.pub), r.pub)
	}
	if got := r.pub[0].Bundle["text/html"]; got != "<i>hi</i>" {
		t.Errorf("MIMEMap: text/html %v", got)
	}
	if got := r.pub[2].Bundle["text/plain"]; got != "plain" {
		t.Errorf("Display(string): %v", got)
	}
	if got := r.pub[3].Bundle["text/latex"]; got != `$$e^{i\pi}+1=0$$` {
		t.Errorf("Math: %v", got)
	}
}
