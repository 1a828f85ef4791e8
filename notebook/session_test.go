package notebook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// These tests run the notebooks of tests/notebooks through the production
// session (kernel/app), end to end except for the command line.

func readTestNotebook(t *testing.T, name string) *Notebook {
	t.Helper()
	f, err := os.Open("../tests/notebooks/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	nb, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func newSession(t *testing.T) session.Runner {
	t.Helper()
	s, err := app.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSessionBasicsNotebook(t *testing.T) {
	nb := readTestNotebook(t, "basics.ipynb")
	if err := Execute(context.Background(), nb, newSession(t), Options{Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, c := range nb.Cells {
		if c.Type == Code {
			got = append(got, outline(c))
		}
	}
	want := [][]string{
		{"stdout:hello from tick 21\n"},
		{"execute_result:42"},
		{"stdout:25\n"},
		{"stderr:a line on stderr\n", "stdout:0 1 2 \n"},
		nil,
		{`execute_result:"5 cells ran"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outputs:\n got %q\nwant %q", got, want)
	}
	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(&out); err != nil {
		t.Errorf("executed notebook does not read back: %v", err)
	}
}

func TestSessionImagesNotebook(t *testing.T) {
	nb := readTestNotebook(t, "images.ipynb")
	if err := Execute(context.Background(), nb, newSession(t), Options{Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	want := notebookPNGs(t, nb)
	if len(want) != 2 {
		t.Fatalf("notebook has %d PNG outputs, want 2", len(want))
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := pagePNGs(t, page.String()); !reflect.DeepEqual(got, want) {
		t.Errorf("page has %d PNG images, notebook %d (or they differ)", len(got), len(want))
	}
	if !strings.Contains(page.String(), "<h1>Images</h1>") {
		t.Error("page lacks the rendered Markdown heading")
	}
}

func TestSessionErrorNotebook(t *testing.T) {
	nb := readTestNotebook(t, "error-panic.ipynb")
	err := Execute(context.Background(), nb, newSession(t), Options{Timeout: time.Minute})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Cell != 3 || ce.Err.Name != "Panic" || !strings.Contains(ce.Err.Value, "nil map") {
		t.Fatalf("err = %v, want a Panic about the nil map in cell 3", err)
	}
	nb = readTestNotebook(t, "error-panic.ipynb")
	if err := Execute(context.Background(), nb, newSession(t), Options{Timeout: time.Minute, AllowErrors: true}); err != nil {
		t.Fatalf("AllowErrors: %v", err)
	}
	if got := outline(nb.Cells[3]); !reflect.DeepEqual(got, []string{"stdout:after the panic, counter = 2\n"}) {
		t.Errorf("cell after the panic = %q, want it run with the state kept", got)
	}
}

func TestSessionTimeoutInterrupts(t *testing.T) {
	nb := codeNotebook("n := 0\nfor {\n\tn++\n}", `"still alive"`)
	err := Execute(context.Background(), nb, newSession(t), Options{Timeout: 200 * time.Millisecond, AllowErrors: true})
	if err != nil {
		t.Fatalf("err = %v, want the loop interrupted and the next cell run", err)
	}
	if got := outline(nb.Cells[0]); len(got) != 1 || !strings.HasPrefix(got[0], "error:Timeout:") {
		t.Errorf("looping cell = %q, want a Timeout error", got)
	}
	if got := outline(nb.Cells[1]); !reflect.DeepEqual(got, []string{`execute_result:"still alive"`}) {
		t.Errorf("next cell = %q", got)
	}
}

func TestSessionDisplayNotebook(t *testing.T) {
	nb := readTestNotebook(t, "display.ipynb")
	if err := Execute(context.Background(), nb, newSession(t), Options{Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	code := []*Cell{}
	for _, c := range nb.Cells {
		if c.Type == Code {
			code = append(code, c)
		}
	}
	types := func(c *Cell) (s []string) {
		for _, o := range c.Outputs {
			mimes := []string{}
			for m := range o.Data {
				mimes = append(mimes, m)
			}
			sort.Strings(mimes)
			s = append(s, o.Type+"["+strings.Join(mimes, " ")+"]")
		}
		return s
	}
	want := [][]string{
		{"display_data[text/markdown text/plain]", "display_data[text/html]"},
		{"display_data[image/svg+xml text/plain]", "display_data[application/json text/plain]"},
		{"display_data[image/png text/plain]", "stream[]"},
	}
	for i, w := range want {
		if got := types(code[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("code cell %d outputs = %q, want %q", i+1, got, w)
		}
	}
	// The HTML display of cell 1 was updated from cell 2.
	if s, _ := code[0].Outputs[1].Data.Text("text/html"); s != "<b>done: 100%</b>" {
		t.Errorf("updated display = %q, want the update from the next cell", s)
	}
	if raw, _ := code[1].Outputs[1].Data["application/json"].(json.RawMessage); string(raw) != `{"cells":5}` {
		t.Errorf("application/json = %s, want the object", raw)
	}
	var out bytes.Buffer
	if err := WriteHTML(&out, nb, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, want := pagePNGs(t, out.String()), notebookPNGs(t, nb); len(want) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("page PNGs %d, notebook %d", len(got), len(want))
	}
	for _, s := range []string{"<strong>bold</strong> from Markdown", "<b>done: 100%</b>", `fill="teal"`, `&#34;cells&#34;: 5`} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("page lacks %q", s)
		}
	}

	t.Run("clear waits for output printed after it", func(t *testing.T) {
		got := outline(code[3])
		if !reflect.DeepEqual(got, []string{"stdout:only this line remains\n"}) {
			t.Errorf("cleared cell = %q, want only the line printed after Clear(true)", got)
		}
	})
}
