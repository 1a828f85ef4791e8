package session

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/kerneltest/sinktest"
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
	if len(rec.Published()) != 2 || rec.Published()[0].Bundle["text/markdown"] != "**hi**" {
		t.Fatalf("published %+v", rec.Published())
	}
	if len(rec.Updates()) != 1 || rec.Updates()[0].ID != rec.Published()[1].ID || rec.Updates()[0].ID == "" {
		t.Errorf("updates %+v, want one with the id of the HTML output", rec.Updates())
	}
	if len(rec.Clears()) != 1 || !rec.Clears()[0] {
		t.Errorf("clears %v", rec.Clears())
	}
	// After the cell, the sink is no longer installed.
	_, rec2 := exec(t, s, 2, `1`)
	if len(rec.Published()) != 2 || len(rec2.Published()) != 0 {
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

// eventLog writes each call r recorded as text ("stdout:a\n",
// "publish:<b>x</b>", "update:1", "clear:true"), in order. Consecutive
// writes to one stream are merged: coalescing may split text differently,
// the order between kinds of events is what matters.
func eventLog(r *sinktest.Recorder) []string {
	var out []string
	for _, e := range r.Events() {
		switch e.Kind {
		case sinktest.Stream:
			if n := len(out); n > 0 && strings.HasPrefix(out[n-1], e.Name+":") {
				out[n-1] += e.Text
				continue
			}
			out = append(out, e.Name+":"+e.Text)
		case sinktest.Publish:
			out = append(out, fmt.Sprint("publish:", e.Data.Bundle["text/plain"]))
		case sinktest.Update:
			out = append(out, fmt.Sprint("update:", e.Data.Bundle["text/plain"]))
		case sinktest.Clear:
			out = append(out, fmt.Sprint("clear:", e.Wait))
		}
	}
	return out
}

// TestDisplayKeepsOrderWithPrintedText checks that display calls flush the
// stream text printed before them (it is buffered up to 20 ms), so the sink
// sees outputs in the order the cell produced them.
func TestDisplayKeepsOrderWithPrintedText(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name, code string
		want       []string
	}{
		{"print_then_html", `fmt.Println("a")
display.HTML("<b>x</b>")`, []string{"stdout:a\n", "publish:<b>x</b>"}},
		{"clear_between_prints", `fmt.Println("a")
display.Clear(true)
fmt.Println("b")`, []string{"stdout:a\n", "clear:true", "stdout:b\n"}},
		{"update_between_prints", `h := display.Text("0")
fmt.Print("a")
h.Update(display.Bundle{"text/plain": "1"})
fmt.Fprintln(os.Stderr, "b")`, []string{"publish:0", "stdout:a", "update:1", "stderr:b\n"}},
		{"goroutine_print_then_display", `done := make(chan bool)
go func() { fmt.Println("g"); done <- true }()
<-done
display.Markdown("m")`, []string{"stdout:g\n", "publish:m"}},
	}
	if res, _ := exec(t, s, 1, `import ("fmt"; "os"; "tick/display")`); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &sinktest.Recorder{}
			res := s.Execute(context.Background(), Cell{Code: c.code, Count: i + 2}, r)
			if res.Err != nil {
				t.Fatal(res.Err.Traceback)
			}
			if got := eventLog(r); !reflect.DeepEqual(got, c.want) {
				t.Errorf("sink saw %q, want %q", got, c.want)
			}
		})
	}
}

// TestHandleIsNotEchoed checks that a cell ending in a display call shows
// the output once (display_data) and no execute_result "&{<id>}".
func TestHandleIsNotEchoed(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name, code  string
		wantPublish int
	}{
		{"html", `display.HTML("<b>x</b>")`, 1},
		{"image", "img := image.NewGray(image.Rect(0, 0, 2, 2))\ndisplay.Image(img)", 1},
		{"handle_variable", "h := display.Text(\"t\")\nh", 1},
		{"show", `display.Show(display.Bundle{"text/plain": "s"})`, 1},
	}
	if res, _ := exec(t, s, 1, `import ("image"; "tick/display")`); res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, rec := exec(t, s, i+2, c.code)
			if res.Err != nil {
				t.Fatal(res.Err.Traceback)
			}
			if res.Value != nil {
				t.Errorf("value %v, want none (a display handle is not echoed)", res.Value.Bundle)
			}
			if len(rec.Published()) != c.wantPublish {
				t.Errorf("published %d outputs, want %d", len(rec.Published()), c.wantPublish)
			}
		})
	}
	// Other pointers to structs are still echoed.
	res, _ := exec(t, s, 10, "type P struct{ X int }\n&P{3}")
	if res.Err != nil {
		t.Fatal(res.Err.Traceback)
	}
	if res.Value == nil || res.Value.Bundle["text/plain"] != "&{3}" {
		t.Errorf("value of &P{3} = %v, want text/plain &{3}", res.Value)
	}
}
