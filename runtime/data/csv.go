package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// CSVOptions says how LoadCSV reads a file. The zero value reads a file
// whose last column is the label and whose first row is a header when it
// is not all numbers.
type CSVOptions struct {
	// Label picks the label column, counting from the last column (0:
	// the last, 1: the one before it), or from the first (0: the first)
	// when LabelFromStart is set.
	Label          int
	LabelFromStart bool
	// Header: "auto" (the default, ""), "yes" or "no".
	Header string
	// Comma is the field separator (',' when zero).
	Comma rune
}

// LoadCSV reads a CSV file of numeric feature columns and one label
// column of integer class indices (0, 1, ...) into a Dataset. Every error
// names the file, the line and what to do: a missing file, a field that
// is not a number, a row with another number of fields, a label that is
// not a non-negative integer.
func LoadCSV(path string, o CSVOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Op: "LoadCSV", Path: path, Msg: "cannot open the file (give a path relative to the notebook's directory, or an absolute one)", Err: err}
	}
	defer f.Close()
	r := csv.NewReader(f)
	if o.Comma != 0 {
		r.Comma = o.Comma
	}
	r.FieldsPerRecord = -1 // checked here, with a better message
	r.TrimLeadingSpace = true
	d := &Dataset{Name: path}
	width, label := 0, 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: "not valid CSV", Err: err}
		}
		if width == 0 {
			width = len(rec)
			if width < 2 {
				return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: fmt.Sprintf("%d column: want at least one feature column and a label column", width)}
			}
			label = o.Label
			if !o.LabelFromStart {
				label = width - 1 - o.Label
			}
			if label < 0 || label >= width {
				return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: fmt.Sprintf("label column %d is outside the %d columns", o.Label, width)}
			}
			if isHeader(rec, o.Header) {
				continue
			}
		}
		if len(rec) != width {
			return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: fmt.Sprintf("%d fields, the first row has %d: every row needs the same columns", len(rec), width)}
		}
		for c, s := range rec {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: fmt.Sprintf("column %d is %q, not a number (the loader reads numeric features and an integer label)", c+1, s)}
			}
			if c != label {
				d.X = append(d.X, float32(v))
				continue
			}
			if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
				return nil, &Error{Op: "LoadCSV", Path: path, Line: line, Msg: fmt.Sprintf("label (column %d) is %q: want a class index 0, 1, 2, ...", c+1, s)}
			}
			d.Y = append(d.Y, int32(v))
			d.Classes = max(d.Classes, int(v)+1)
		}
	}
	if len(d.Y) == 0 {
		return nil, &Error{Op: "LoadCSV", Path: path, Msg: "no data rows"}
	}
	d.Features = width - 1
	return d, nil
}

// isHeader decides whether the first row is a header: as told, or (auto)
// when any field is not a number.
func isHeader(rec []string, mode string) bool {
	switch mode {
	case "yes":
		return true
	case "no":
		return false
	}
	for _, s := range rec {
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return true
		}
	}
	return false
}
