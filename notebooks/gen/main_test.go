package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		want       []cell
		err        string
	}{
		{"two cells", "comment\n-- markdown --\n\n# T\n\n-- code --\nx := 1\n\ny := 2\n",
			[]cell{{"markdown", "# T"}, {"code", "x := 1\n\ny := 2"}}, ""},
		{"no cells", "just a comment\n", nil, "no cells"},
		{"empty cell", "-- code --\n\n-- code --\nx\n", nil, "cell 1 (code) is empty"},
		{"bad marker", "-- raw --\nx\n", nil, "unknown cell marker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse("nb", tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parse error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d cells %q, want %q", len(got), got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("cell %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestRenderIsStableNbformat(t *testing.T) {
	cells := []cell{{"markdown", "# T"}, {"code", "a\nb"}}
	a, err := render("nb", cells)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := render("nb", cells)
	if string(a) != string(b) {
		t.Fatal("render is not deterministic")
	}
	var nb struct {
		Cells []struct {
			CellType string   `json:"cell_type"`
			ID       string   `json:"id"`
			Source   []string `json:"source"`
			Outputs  []any    `json:"outputs"`
		} `json:"cells"`
		NBFormat int `json:"nbformat"`
		Minor    int `json:"nbformat_minor"`
	}
	if err := json.Unmarshal(a, &nb); err != nil {
		t.Fatal(err)
	}
	if nb.NBFormat != 4 || nb.Minor != 5 || len(nb.Cells) != 2 {
		t.Fatalf("nbformat %d.%d with %d cells", nb.NBFormat, nb.Minor, len(nb.Cells))
	}
	if got := strings.Join(nb.Cells[1].Source, "|"); got != "a\n|b" {
		t.Errorf("code source lines = %q", got)
	}
	if nb.Cells[0].ID == nb.Cells[1].ID || nb.Cells[1].Outputs == nil {
		t.Errorf("cells need distinct ids and code cells empty outputs: %+v", nb.Cells)
	}
}

// TestNotebooksUpToDate fails when a committed notebook differs from its source.
func TestNotebooksUpToDate(t *testing.T) {
	var log strings.Builder
	if err := run("src", "..", true, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
}
