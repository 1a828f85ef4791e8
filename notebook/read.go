package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// FormatError says why a file is not a notebook this package can read.
// Where is the JSON path of the problem ("cells[3].outputs[0]"), empty for
// the whole file.
type FormatError struct {
	Where string
	Msg   string
	Err   error
	// notNotebook marks errors about the file as a whole (not JSON, not
	// nbformat 4): errors.Is(err, ErrNotNotebook) reports them.
	notNotebook bool
}

func (e *FormatError) Error() string {
	s := "notebook: "
	if e.Where != "" {
		s += e.Where + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// Is reports whether target is ErrNotNotebook and e is about the file as a
// whole.
func (e *FormatError) Is(target error) bool { return target == ErrNotNotebook && e.notNotebook }

// ErrNotNotebook matches (errors.Is) the FormatError of a file that is not
// JSON or not an nbformat 4 notebook at all.
var ErrNotNotebook = errors.New("not an nbformat 4 notebook")

// Read parses an nbformat 4 notebook (any minor version). Multiline strings
// may be strings or lists of strings. Malformed input gives a *FormatError
// naming the place of the problem; Read never panics.
func Read(r io.Reader) (*Notebook, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("notebook: reading: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err == nil {
			err = errors.New("top level is not a JSON object")
		}
		return nil, &FormatError{Msg: "the file is not a JSON notebook (is it an .ipynb file?)", Err: err, notNotebook: true}
	}
	nb := &Notebook{}
	if err := take(top, "nbformat", &nb.Format, true); err != nil {
		return nil, &FormatError{Msg: "missing or bad \"nbformat\"", Err: err, notNotebook: true}
	}
	if nb.Format != 4 {
		return nil, &FormatError{Msg: fmt.Sprintf("nbformat %d is not supported; tick reads nbformat 4 (convert with `jupyter nbconvert --to notebook`)", nb.Format), notNotebook: true}
	}
	if err := take(top, "nbformat_minor", &nb.FormatMinor, false); err != nil {
		return nil, &FormatError{Where: "nbformat_minor", Msg: "not an integer", Err: err}
	}
	if err := takeObject(top, "metadata", &nb.Metadata); err != nil {
		return nil, &FormatError{Where: "metadata", Msg: "not a JSON object", Err: err}
	}
	rawCells, ok := top["cells"]
	if !ok {
		return nil, &FormatError{Msg: "no \"cells\" list; an nbformat 4 notebook has one", notNotebook: true}
	}
	delete(top, "cells")
	var cells []json.RawMessage
	if err := json.Unmarshal(rawCells, &cells); err != nil || cells == nil {
		return nil, &FormatError{Where: "cells", Msg: "not a JSON list", Err: err}
	}
	for i, rc := range cells {
		c, err := readCell(rc)
		if err != nil {
			return nil, prefixWhere(fmt.Sprintf("cells[%d]", i), err)
		}
		nb.Cells = append(nb.Cells, c)
	}
	nb.Extra = extra(top)
	return nb, nil
}

func readCell(raw json.RawMessage) (*Cell, error) {
	obj, err := object(raw)
	if err != nil {
		return nil, err
	}
	c := &Cell{}
	if err := take(obj, "cell_type", &c.Type, true); err != nil {
		return nil, &FormatError{Msg: "bad \"cell_type\"", Err: err}
	}
	switch c.Type {
	case Code, Markdown, Raw:
	default:
		return nil, &FormatError{Msg: fmt.Sprintf("unknown cell_type %q (want code, markdown or raw)", c.Type)}
	}
	if err := take(obj, "id", &c.ID, false); err != nil {
		return nil, &FormatError{Msg: "bad \"id\"", Err: err}
	}
	if err := takeMultiline(obj, "source", &c.Source, true); err != nil {
		return nil, &FormatError{Msg: "bad \"source\"", Err: err}
	}
	if err := takeObject(obj, "metadata", &c.Metadata); err != nil {
		return nil, &FormatError{Msg: "bad \"metadata\"", Err: err}
	}
	if a, ok := obj["attachments"]; ok {
		c.Attachments = a
		delete(obj, "attachments")
	}
	if c.Type == Code {
		if err := takeCount(obj, "execution_count", &c.ExecutionCount); err != nil {
			return nil, &FormatError{Msg: "bad \"execution_count\"", Err: err}
		}
		if err := readOutputs(obj, c); err != nil {
			return nil, err
		}
	}
	c.Extra = extra(obj)
	return c, nil
}

func readOutputs(obj map[string]json.RawMessage, c *Cell) error {
	raw, ok := obj["outputs"]
	if !ok {
		return nil
	}
	delete(obj, "outputs")
	var outs []json.RawMessage
	if err := json.Unmarshal(raw, &outs); err != nil {
		return &FormatError{Where: "outputs", Msg: "not a JSON list", Err: err}
	}
	for i, ro := range outs {
		o, err := readOutput(ro)
		if err != nil {
			return prefixWhere(fmt.Sprintf("outputs[%d]", i), err)
		}
		c.Outputs = append(c.Outputs, o)
	}
	return nil
}

func readOutput(raw json.RawMessage) (*Output, error) {
	obj, err := object(raw)
	if err != nil {
		return nil, err
	}
	o := &Output{}
	if err := take(obj, "output_type", &o.Type, true); err != nil {
		return nil, &FormatError{Msg: "bad \"output_type\"", Err: err}
	}
	switch o.Type {
	case Stream:
		if err := take(obj, "name", &o.Name, true); err != nil {
			return nil, &FormatError{Msg: "bad stream \"name\"", Err: err}
		}
		if err := takeMultiline(obj, "text", &o.Text, true); err != nil {
			return nil, &FormatError{Msg: "bad stream \"text\"", Err: err}
		}
	case DisplayData, ExecuteResult:
		if err := readBundle(obj, o); err != nil {
			return nil, err
		}
		if o.Type == ExecuteResult {
			if err := takeCount(obj, "execution_count", &o.ExecutionCount); err != nil {
				return nil, &FormatError{Msg: "bad \"execution_count\"", Err: err}
			}
		}
	case ErrorOutput:
		if err := take(obj, "ename", &o.EName, true); err != nil {
			return nil, &FormatError{Msg: "bad \"ename\"", Err: err}
		}
		if err := take(obj, "evalue", &o.EValue, true); err != nil {
			return nil, &FormatError{Msg: "bad \"evalue\"", Err: err}
		}
		if tb, ok := obj["traceback"]; ok {
			delete(obj, "traceback")
			if err := json.Unmarshal(tb, &o.Traceback); err != nil {
				return nil, &FormatError{Msg: "bad \"traceback\" (want a list of strings)", Err: err}
			}
		}
	default:
		return nil, &FormatError{Msg: fmt.Sprintf("unknown output_type %q", o.Type)}
	}
	o.Extra = extra(obj)
	return o, nil
}

func readBundle(obj map[string]json.RawMessage, o *Output) error {
	if err := takeObject(obj, "metadata", &o.Metadata); err != nil {
		return &FormatError{Msg: "bad \"metadata\"", Err: err}
	}
	var data map[string]json.RawMessage
	if err := takeObject(obj, "data", &data); err != nil {
		return &FormatError{Msg: "bad \"data\"", Err: err}
	}
	o.Data = MIMEBundle{}
	for mime, v := range data {
		if isJSONMIME(mime) {
			o.Data[mime] = v
			continue
		}
		s, err := multiline(v)
		if err != nil {
			return &FormatError{Where: "data." + mime, Msg: "not a string or list of strings", Err: err}
		}
		o.Data[mime] = s
	}
	return nil
}

// prefixWhere adds where in front of the location of a *FormatError.
func prefixWhere(where string, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		if fe.Where != "" {
			where += "." + fe.Where
		}
		return &FormatError{Where: where, Msg: fe.Msg, Err: fe.Err}
	}
	return &FormatError{Where: where, Msg: "invalid", Err: err}
}

func object(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, &FormatError{Msg: "not a JSON object", Err: err}
	}
	return obj, nil
}

// The take* helpers decode obj[key] into dst and delete the key, so that
// what remains in obj is the set of fields kept as Extra.

// pop removes obj[key] and returns it; ok is false when key is absent,
// which is an error when the key is required.
func pop(obj map[string]json.RawMessage, key string, required bool) (raw json.RawMessage, ok bool, err error) {
	raw, ok = obj[key]
	if !ok {
		if required {
			return nil, false, fmt.Errorf("%q is missing", key)
		}
		return nil, false, nil
	}
	delete(obj, key)
	return raw, true, nil
}

// take decodes a JSON value of dst's type.
func take[T any](obj map[string]json.RawMessage, key string, dst *T, required bool) error {
	raw, ok, err := pop(obj, key, required)
	if !ok {
		return err
	}
	return json.Unmarshal(raw, dst)
}

func takeMultiline(obj map[string]json.RawMessage, key string, dst *string, required bool) error {
	raw, ok, err := pop(obj, key, required)
	if !ok {
		return err
	}
	s, err := multiline(raw)
	*dst = s
	return err
}

func takeObject(obj map[string]json.RawMessage, key string, dst *map[string]json.RawMessage) error {
	raw, ok, _ := pop(obj, key, false)
	if !ok {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	if m == nil {
		return errors.New("null, want an object")
	}
	*dst = m
	return nil
}

func takeCount(obj map[string]json.RawMessage, key string, dst **int) error {
	raw, ok, _ := pop(obj, key, false)
	if !ok {
		return nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		*dst = nil
		return nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return err
	}
	*dst = &n
	return nil
}

// multiline decodes an nbformat multiline string: a string or a list of
// strings that are concatenated.
func multiline(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("want a string or a list of strings")
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = append(b, p...)
	}
	return string(b), nil
}

// extra returns what is left of obj, or nil when nothing is.
func extra(obj map[string]json.RawMessage) map[string]json.RawMessage {
	if len(obj) == 0 {
		return nil
	}
	return obj
}
