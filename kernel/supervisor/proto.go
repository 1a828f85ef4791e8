package supervisor

import (
	"bufio"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
)

// The pipe protocol. The supervisor writes requests to the engine's fd 3,
// the engine writes events to its fd 4; each direction is one gob stream
// (types are sent once, then each message costs a few bytes of framing).
// Requests and events carry the ID of the call they belong to; the events
// of one call arrive in the order the engine produced them, and its result
// comes last.

// op is the kind of a request or an event.
type op uint8

const (
	// supervisor → engine
	opExecute    op = iota + 1 // run Code as cell Count
	opComplete                 // complete Code at Cursor
	opInspect                  // inspect Code at Cursor, Detail
	opIsComplete               // is Code complete
	opInterrupt                // interrupt the running cell
	opInput                    // the answer (Text or Err) to an input request

	// engine → supervisor
	opHello        // the engine serves: Pid
	opStream       // Name ("stdout"/"stderr"), Text
	opPublish      // display_data: Data
	opUpdate       // update_display_data: Data
	opClear        // clear_output: Wait
	opInputRequest // read a line: Prompt, Password
	opResult       // the call's result (execute, complete, inspect, is_complete)
)

// request is one message from the supervisor to the engine.
type request struct {
	Op                    op
	ID                    uint64
	Code                  string
	Count, Cursor, Detail int
	Stdin                 bool   // execute: the front end answers input requests
	Text, Err             string // input: the line read, or why there is none
}

// event is one message from the engine to the supervisor.
type event struct {
	Op           op
	ID           uint64
	Pid          int
	Name, Text   string
	Prompt       string
	Password     bool
	Wait         bool
	Data         *wireData
	Result       *wireResult
	Completion   *session.Completion
	Inspection   *session.Inspection
	Completeness *session.Completeness
}

// wireData is a display.Data as it crosses the pipe: each MIME value keeps
// its Go shape where the front ends look at it (text as a string, images as
// bytes); JSON values travel encoded.
type wireData struct {
	ID       string
	Items    []wireItem
	Metadata []byte // JSON, empty for none
}

type wireItem struct {
	MIME  string
	Kind  uint8 // itemString, itemBytes, itemJSON
	Str   string
	Bytes []byte
}

const (
	itemString uint8 = iota
	itemBytes
	itemJSON
)

// wireResult is a session.Result: the error's cause does not cross the
// pipe (its kind, message and traceback do).
type wireResult struct {
	Value *wireData
	Err   *wireError
	Page  string
}

type wireError struct {
	Name      string
	Value     string
	Traceback []string
}

// isJSONMIME reports whether a MIME type holds a JSON document (front ends
// parse it; the bundle value is any JSON-marshalable value).
func isJSONMIME(mime string) bool {
	return mime == "application/json" || strings.HasSuffix(mime, "+json")
}

// toWire converts display data for the pipe. A value that cannot be
// encoded is replaced by a text saying so (as the front ends would have
// shown nothing).
func toWire(d display.Data) *wireData {
	w := &wireData{ID: d.ID, Items: make([]wireItem, 0, len(d.Bundle))}
	for mime, v := range d.Bundle {
		it := wireItem{MIME: mime}
		switch v := v.(type) {
		case string:
			it.Str = v
		case []byte:
			it.Kind, it.Bytes = itemBytes, v
		case json.RawMessage:
			it.Kind, it.Bytes = itemJSON, v
		default:
			if !isJSONMIME(mime) {
				it.Str = fmt.Sprint(v)
				break
			}
			raw, err := json.Marshal(v)
			if err != nil {
				it.Str = fmt.Sprintf("<%s value that does not marshal: %v>", mime, err)
				break
			}
			it.Kind, it.Bytes = itemJSON, raw
		}
		w.Items = append(w.Items, it)
	}
	if len(d.Metadata) > 0 {
		if raw, err := json.Marshal(d.Metadata); err == nil {
			w.Metadata = raw
		}
	}
	return w
}

// fromWire is the inverse of toWire. JSON values become json.RawMessage,
// which encoding/json writes out verbatim.
func fromWire(w *wireData) display.Data {
	d := display.Data{ID: w.ID, Bundle: make(display.Bundle, len(w.Items))}
	for _, it := range w.Items {
		switch it.Kind {
		case itemBytes:
			d.Bundle[it.MIME] = it.Bytes
		case itemJSON:
			d.Bundle[it.MIME] = json.RawMessage(it.Bytes)
		default:
			d.Bundle[it.MIME] = it.Str
		}
	}
	if len(w.Metadata) > 0 {
		_ = json.Unmarshal(w.Metadata, &d.Metadata)
	}
	return d
}

func resultToWire(r session.Result) *wireResult {
	w := &wireResult{Page: r.Page}
	if r.Value != nil {
		w.Value = toWire(*r.Value)
	}
	if r.Err != nil {
		w.Err = &wireError{Name: string(r.Err.Name), Value: r.Err.Value, Traceback: r.Err.Traceback}
	}
	return w
}

func resultFromWire(w *wireResult) session.Result {
	var r session.Result
	if w == nil {
		return r
	}
	r.Page = w.Page
	if w.Value != nil {
		d := fromWire(w.Value)
		r.Value = &d
	}
	if w.Err != nil {
		r.Err = &cell.Error{Name: cell.Kind(w.Err.Name), Value: w.Err.Value, Traceback: w.Err.Traceback}
	}
	return r
}

// encoder writes one gob stream, one message at a time, flushed at once:
// a message is never left in a buffer while the other side waits for it.
type encoder struct {
	mu  sync.Mutex
	buf *bufio.Writer
	enc *gob.Encoder
}

func newEncoder(w io.Writer) *encoder {
	b := bufio.NewWriterSize(w, 64<<10)
	return &encoder{buf: b, enc: gob.NewEncoder(b)}
}

func (e *encoder) send(v any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	return e.buf.Flush()
}
