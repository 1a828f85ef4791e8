// Package notebook reads, writes, executes and exports Jupyter notebooks
// (nbformat 4) without Jupyter: it is what `tick run` is made of.
//
// Read accepts any nbformat 4.x file and keeps what it does not interpret
// (unknown metadata and fields) as raw JSON, so a round trip through Read and
// Write loses nothing. Write produces nbformat 4.5 (cell ids, the tick
// kernelspec when none is set). Execute runs the code cells through a
// session.Runner and fills in outputs the way a Jupyter client would; WriteHTML
// renders a self-contained page with the images inline.
package notebook

import (
	"encoding/json"
	"strings"
)

// Cell types of nbformat 4.
const (
	Code     = "code"
	Markdown = "markdown"
	Raw      = "raw"
)

// Output types of nbformat 4.
const (
	Stream        = "stream"
	DisplayData   = "display_data"
	ExecuteResult = "execute_result"
	ErrorOutput   = "error"
)

// Notebook is an nbformat 4 notebook.
type Notebook struct {
	// Format and FormatMinor are nbformat and nbformat_minor as read. Write
	// always writes major 4 and at least minor 5.
	Format, FormatMinor int
	// Metadata is the notebook metadata (kernelspec, language_info, and
	// anything else), kept as raw JSON.
	Metadata map[string]json.RawMessage
	Cells    []*Cell
	// Extra holds top-level fields this package does not interpret.
	Extra map[string]json.RawMessage
}

// Cell is one cell of a notebook.
type Cell struct {
	// ID is the nbformat 4.5 cell id; Write generates one when empty.
	ID string
	// Type is Code, Markdown or Raw.
	Type   string
	Source string
	// Metadata is the cell metadata, kept as raw JSON.
	Metadata map[string]json.RawMessage
	// Attachments of markdown and raw cells, as raw JSON (nil when absent).
	Attachments json.RawMessage
	// ExecutionCount of a code cell; nil when the cell has not run.
	ExecutionCount *int
	// Outputs of a code cell.
	Outputs []*Output
	// Extra holds cell fields this package does not interpret.
	Extra map[string]json.RawMessage
}

// Output is one output of a code cell.
type Output struct {
	// Type is Stream, DisplayData, ExecuteResult or ErrorOutput.
	Type string
	// Name ("stdout" or "stderr") and Text of a stream output.
	Name, Text string
	// Data is the MIME bundle of display_data and execute_result outputs.
	Data MIMEBundle
	// Metadata of display_data and execute_result outputs, as raw JSON.
	Metadata map[string]json.RawMessage
	// ExecutionCount of an execute_result.
	ExecutionCount *int
	// EName, EValue and Traceback of an error output.
	EName, EValue string
	Traceback     []string
	// DisplayID is the transient display_id that later updates refer to. It
	// lives only while the notebook executes and is not written.
	DisplayID string
	// Extra holds output fields this package does not interpret.
	Extra map[string]json.RawMessage
}

// MIMEBundle maps a MIME type to its content. JSON types
// ("application/json", "*+json") hold a json.RawMessage; every other type
// holds a string (binary types such as "image/png" hold base64 text, as in
// the notebook file).
type MIMEBundle map[string]any

// Text returns the string content of mime, or false when the bundle has no
// such string entry.
func (b MIMEBundle) Text(mime string) (string, bool) {
	s, ok := b[mime].(string)
	return s, ok
}

// isJSONMIME reports whether mime holds a JSON value rather than a string.
func isJSONMIME(mime string) bool {
	return mime == "application/json" || strings.HasSuffix(mime, "+json")
}

// isTextMIME reports whether mime holds text that is written as a list of
// lines (binary types are written as one base64 string).
func isTextMIME(mime string) bool {
	switch {
	case strings.HasPrefix(mime, "text/"),
		mime == "image/svg+xml",
		mime == "application/javascript",
		strings.HasSuffix(mime, "+xml"):
		return true
	}
	return false
}

// CodeCells returns the number of code cells in nb.
func (nb *Notebook) CodeCells() int {
	n := 0
	for _, c := range nb.Cells {
		if c.Type == Code {
			n++
		}
	}
	return n
}

// splitLines splits s into lines that keep their "\n", as nbformat writes
// multiline strings.
func splitLines(s string) []string {
	lines := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}
