package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// full is a notebook in the layout Write produces, with unknown fields at
// every level; a round trip must reproduce it exactly (as JSON values).
const full = `{
 "cells": [
  {"attachments": {"a.png": {"image/png": "iVBORw0KGgo="}},
   "cell_type": "markdown", "id": "md-1",
   "metadata": {"tags": ["intro"], "x-custom": {"deep": [1, 2, {"k": null}]}},
   "source": ["# Title\n", "![](attachment:a.png)"]},
  {"cell_type": "code", "execution_count": 3, "id": "code-2",
   "metadata": {"collapsed": false, "scrolled": "auto"},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["a\n", "b"]},
    {"data": {"application/json": {"a": [1, 2]}, "image/png": "iVBORw0KGgo=",
              "text/html": ["<b>x</b>"], "text/plain": ["x\n", "y"]},
     "metadata": {"image/png": {"width": 10}}, "output_type": "display_data"},
    {"data": {"text/plain": ["42"]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"},
    {"ename": "Panic", "evalue": "boom", "output_type": "error", "traceback": ["Panic: boom", "cell[3]:2"]}
   ],
   "source": ["x := 1\n", "fmt.Println(x)"]},
  {"cell_type": "code", "execution_count": null, "id": "code-3", "metadata": {}, "outputs": [], "source": []},
  {"cell_type": "raw", "id": "raw-4", "metadata": {"format": "text/x-rst"}, "source": ["raw *text*"]}
 ],
 "metadata": {
  "kernelspec": {"display_name": "Other", "language": "go", "name": "other"},
  "language_info": {"name": "go"},
  "unknown_tool": {"setting": true}
 },
 "nbformat": 4,
 "nbformat_minor": 5
}`

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b)
	}
	return v
}

func TestRoundTripPreservesEverything(t *testing.T) {
	nb, err := Read(strings.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	if got, want := decodeAny(t, out.Bytes()), decodeAny(t, []byte(full)); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the notebook:\n%s", out.Bytes())
	}
	// Writing what was read back is byte-stable.
	nb2, err := Read(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	if err := Write(&out2, nb2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), out2.Bytes()) {
		t.Errorf("second round trip differs:\n%s\n---\n%s", out.Bytes(), out2.Bytes())
	}
}

func TestReadAcceptsStringsAndUpgrades(t *testing.T) {
	src := `{"nbformat": 4, "nbformat_minor": 2, "metadata": {},
	 "cells": [{"cell_type": "code", "metadata": {}, "source": "a\nb", "outputs": [
	   {"output_type": "stream", "name": "stdout", "text": "x\ny"}], "execution_count": null},
	  {"cell_type": "markdown", "metadata": {}, "source": "m"},
	  {"cell_type": "markdown", "metadata": {}, "source": "n", "id": "bad id!"}]}`
	nb, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if nb.Cells[0].Source != "a\nb" || nb.Cells[0].Outputs[0].Text != "x\ny" {
		t.Errorf("string multiline not read: %q %q", nb.Cells[0].Source, nb.Cells[0].Outputs[0].Text)
	}
	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Minor    int `json:"nbformat_minor"`
		Metadata struct {
			Kernelspec map[string]string `json:"kernelspec"`
		} `json:"metadata"`
		Cells []struct {
			ID     string   `json:"id"`
			Source []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Minor != 5 {
		t.Errorf("nbformat_minor = %d, want 5", got.Minor)
	}
	want := map[string]string{"name": "tick", "display_name": "Go (tick)", "language": "go"}
	if !reflect.DeepEqual(got.Metadata.Kernelspec, want) {
		t.Errorf("kernelspec = %v, want %v", got.Metadata.Kernelspec, want)
	}
	seen := map[string]bool{}
	for i, c := range got.Cells {
		if !validID.MatchString(c.ID) || seen[c.ID] {
			t.Errorf("cell %d id %q is not a valid unique id", i, c.ID)
		}
		seen[c.ID] = true
	}
	if !reflect.DeepEqual(got.Cells[0].Source, []string{"a\n", "b"}) {
		t.Errorf("source written as %q, want a list of lines", got.Cells[0].Source)
	}
}

func TestWriteDuplicateIDs(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{{Type: Raw, ID: "x"}, {Type: Raw, ID: "x"}}}
	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"id": "x"`); n != 1 {
		t.Errorf("id x written %d times, want once", n)
	}
}

func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name, src, want string
		notNotebook     bool
	}{
		{"empty", "", "not a JSON notebook", true},
		{"not json", "hello", "not a JSON notebook", true},
		{"array", "[1,2]", "not a JSON notebook", true},
		{"no nbformat", `{"cells": []}`, `"nbformat"`, true},
		{"nbformat 3", `{"nbformat": 3, "worksheets": []}`, "nbformat 3 is not supported", true},
		{"nbformat string", `{"nbformat": "4", "cells": []}`, `"nbformat"`, true},
		{"missing cells", `{"nbformat": 4, "metadata": {}}`, `no "cells"`, true},
		{"cells not list", `{"nbformat": 4, "cells": {}}`, "cells: not a JSON list", false},
		{"cells null", `{"nbformat": 4, "cells": null}`, "cells: not a JSON list", false},
		{"cell not object", `{"nbformat": 4, "cells": [1]}`, "cells[0]: not a JSON object", false},
		{"unknown cell type", `{"nbformat": 4, "cells": [{"cell_type": "heading", "source": ""}]}`, `cells[0]: unknown cell_type "heading"`, false},
		{"missing source", `{"nbformat": 4, "cells": [{"cell_type": "code"}]}`, `cells[0]: bad "source"`, false},
		{"source number", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]}`, `cells[0]: bad "source"`, false},
		{"bad count", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "", "execution_count": "x"}]}`, "execution_count", false},
		{"bad output type", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "pyout"}]}]}`, `cells[0].outputs[0]: unknown output_type "pyout"`, false},
		{"bad mime value", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "display_data", "data": {"text/plain": 3}}]}]}`, "cells[0].outputs[0].data.text/plain", false},
		{"metadata not object", `{"nbformat": 4, "metadata": [], "cells": []}`, "metadata: not a JSON object", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.src))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *FormatError", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "notebook: ") {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
			if got := errors.Is(err, ErrNotNotebook); got != tt.notNotebook {
				t.Errorf("errors.Is(err, ErrNotNotebook) = %v, want %v", got, tt.notNotebook)
			}
		})
	}
}
