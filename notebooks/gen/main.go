// Command gen builds tick's tutorial notebooks (notebooks/*.ipynb) from
// readable sources in notebooks/gen/src/*.txt, so the notebooks are reviewed
// and edited as plain text and the .ipynb JSON is never hand-edited.
//
// A source file is a sequence of cells. A line "-- markdown --" or
// "-- code --" starts a cell; the lines up to the next marker are its source
// (blank lines at either end are dropped). Lines before the first marker are
// a comment and ignored.
//
// Usage, from the repository root:
//
//	go run ./notebooks/gen           # rewrite notebooks/NAME.ipynb from src/NAME.txt
//	go run ./notebooks/gen -check    # exit 1 if a notebook differs from its source
//
// The notebooks are written unexecuted (no outputs): `tick run` and
// `jupyter nbconvert --execute` fill the outputs in.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	check := flag.Bool("check", false, "report notebooks that differ from their sources instead of writing them")
	src := flag.String("src", "notebooks/gen/src", "directory of the .txt sources")
	out := flag.String("out", "notebooks", "directory the .ipynb files are written to")
	flag.Parse()
	if err := run(*src, *out, *check, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run converts every source in srcDir to a notebook in outDir, or with check
// only compares them, reporting on w.
func run(srcDir, outDir string, check bool, w io.Writer) error {
	files, err := filepath.Glob(filepath.Join(srcDir, "*.txt"))
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if len(files) == 0 {
		return fmt.Errorf("gen: no sources in %s (run from the repository root)", srcDir)
	}
	stale := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		cells, err := parse(name, string(text))
		if err != nil {
			return fmt.Errorf("gen: %s: %w", f, err)
		}
		nb, err := render(name, cells)
		if err != nil {
			return fmt.Errorf("gen: %s: %w", f, err)
		}
		dst := filepath.Join(outDir, name+".ipynb")
		if check {
			have, err := os.ReadFile(dst)
			if err != nil || !bytes.Equal(have, nb) {
				fmt.Fprintf(w, "gen: %s is not generated from %s; run `go run ./notebooks/gen`\n", dst, f)
				stale++
			}
			continue
		}
		if err := os.WriteFile(dst, nb, 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		fmt.Fprintf(w, "gen: wrote %s (%d cells)\n", dst, len(cells))
	}
	if stale > 0 {
		return fmt.Errorf("gen: %d notebook(s) out of date", stale)
	}
	return nil
}

// cell is one notebook cell read from a source file.
type cell struct {
	Kind   string // "markdown" or "code"
	Source string
}

// parse splits a source file into cells.
func parse(name, text string) ([]cell, error) {
	var cells []cell
	var cur *cell
	var lines []string
	flush := func() {
		if cur != nil {
			cur.Source = strings.Trim(strings.Join(lines, "\n"), "\n")
			cells = append(cells, *cur)
		}
		lines = nil
	}
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		switch strings.TrimSpace(line) {
		case "-- markdown --", "-- code --":
			flush()
			kind := strings.Trim(strings.TrimSpace(line), "- ")
			cur = &cell{Kind: kind}
			continue
		}
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
			return nil, fmt.Errorf("line %d: unknown cell marker %q (want \"-- markdown --\" or \"-- code --\")", i+1, line)
		}
		if cur != nil {
			lines = append(lines, line)
		}
	}
	flush()
	if len(cells) == 0 {
		return nil, fmt.Errorf("no cells in %s (start a cell with a line \"-- code --\")", name)
	}
	for i, c := range cells {
		if strings.TrimSpace(c.Source) == "" {
			return nil, fmt.Errorf("cell %d (%s) is empty", i+1, c.Kind)
		}
	}
	return cells, nil
}

// render returns the nbformat 4.5 JSON of an unexecuted notebook, formatted
// as Jupyter writes it (one-space indent, sorted keys, trailing newline).
// Cell ids are derived from the notebook name and cell index, so the output
// is the same on every run.
func render(name string, cells []cell) ([]byte, error) {
	out := make([]map[string]any, 0, len(cells))
	for i, c := range cells {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", name, i)))
		m := map[string]any{
			"cell_type": c.Kind,
			"id":        hex.EncodeToString(sum[:4]),
			"metadata":  map[string]any{},
			"source":    splitLines(c.Source),
		}
		if c.Kind == "code" {
			m["execution_count"] = nil
			m["outputs"] = []any{}
		}
		out = append(out, m)
	}
	nb := map[string]any{
		"cells": out,
		"metadata": map[string]any{
			"kernelspec": map[string]any{
				"display_name": "Go (tick)",
				"language":     "go",
				"name":         "tick",
			},
			// codemirror_mode and pygments_lexer: Notebook 6 and Lab
			// highlight Go before a kernel starts, nbconvert always.
			"language_info": map[string]any{
				"codemirror_mode": "go",
				"file_extension":  ".go",
				"mimetype":        "text/x-go",
				"name":            "go",
				"pygments_lexer":  "go",
			},
		},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nb); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// splitLines splits s into lines that keep their "\n", as nbformat stores
// multi-line sources.
func splitLines(s string) []string {
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
