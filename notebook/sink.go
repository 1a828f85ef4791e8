package notebook

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/tick-kernel/tick/display"
)

// recorder turns what a running cell reports into nbformat outputs. One
// recorder serves a whole execution, so that display updates reach outputs
// of earlier cells, as a Jupyter client does.
type recorder struct {
	mu  sync.Mutex
	nb  *Notebook
	cur *Cell // cell now running; nil between cells
	// pendingClear is a clear_output(wait=true) not yet applied.
	pendingClear bool
	closed       bool
}

// cellSink is the session.Sink of one cell. Output arriving after its cell
// ended (from goroutines the cell left running) is dropped; updates of
// display IDs still apply, until the execution ends.
type cellSink struct {
	r    *recorder
	cell *Cell
}

func (r *recorder) begin(c *Cell) *cellSink {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur = c
	r.pendingClear = false
	return &cellSink{r: r, cell: c}
}

// end stops output to the current cell.
func (r *recorder) end() {
	r.mu.Lock()
	r.cur = nil
	r.pendingClear = false
	r.mu.Unlock()
}

// close drops everything that arrives from now on.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.cur = nil
	r.mu.Unlock()
}

// appendLocked adds o to the sink's cell if it is still running, applying
// a pending clear first. r.mu is held.
func (s *cellSink) appendLocked(o *Output) {
	r := s.r
	if r.closed || r.cur != s.cell {
		return
	}
	if r.pendingClear {
		s.cell.Outputs = nil
		r.pendingClear = false
	}
	s.cell.Outputs = append(s.cell.Outputs, o)
}

// Stream appends text to the cell, merged into the previous output when
// that is a stream of the same name.
func (s *cellSink) Stream(name, text string) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.cur != s.cell {
		return
	}
	if !r.pendingClear {
		if n := len(s.cell.Outputs); n > 0 {
			last := s.cell.Outputs[n-1]
			if last.Type == Stream && last.Name == name {
				last.Text += text
				return
			}
		}
	}
	s.appendLocked(&Output{Type: Stream, Name: name, Text: text})
}

// Publish appends a display_data output.
func (s *cellSink) Publish(d display.Data) {
	o := &Output{Type: DisplayData, Data: convertBundle(d.Bundle), Metadata: convertMetadata(d.Metadata), DisplayID: d.ID}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.appendLocked(o)
}

// Update replaces the data of every output, in any cell, published with
// d.ID. An update for an unknown ID is ignored, as Jupyter clients do.
func (s *cellSink) Update(d display.Data) {
	if d.ID == "" {
		return
	}
	data, meta := convertBundle(d.Bundle), convertMetadata(d.Metadata)
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	for _, c := range r.nb.Cells {
		for _, o := range c.Outputs {
			if o.DisplayID == d.ID {
				o.Data, o.Metadata = data, meta
			}
		}
	}
}

// Clear clears the cell's outputs now, or with wait when the next output
// arrives.
func (s *cellSink) Clear(wait bool) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.cur != s.cell {
		return
	}
	if wait {
		r.pendingClear = true
		return
	}
	s.cell.Outputs = nil
	r.pendingClear = false
}

// convertBundle turns a display.Bundle into nbformat data: []byte of binary
// types becomes base64, of text types a string; JSON types are marshalled;
// other values are formatted with %v.
func convertBundle(b display.Bundle) MIMEBundle {
	out := MIMEBundle{}
	for mime, v := range b {
		if isJSONMIME(mime) {
			raw, err := json.Marshal(v)
			if err != nil {
				// Keep the output visible rather than dropping it.
				out["text/plain"] = fmt.Sprintf("<%s value that does not marshal: %v>", mime, err)
				continue
			}
			out[mime] = json.RawMessage(raw)
			continue
		}
		switch v := v.(type) {
		case string:
			out[mime] = v
		case []byte:
			if isTextMIME(mime) && utf8.Valid(v) {
				out[mime] = string(v)
			} else {
				out[mime] = base64.StdEncoding.EncodeToString(v)
			}
		default:
			out[mime] = fmt.Sprint(v)
		}
	}
	return out
}

func convertMetadata(m map[string]any) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		raw, err := json.Marshal(v)
		if err != nil {
			continue // metadata that cannot be written is dropped
		}
		out[k] = raw
	}
	return out
}
