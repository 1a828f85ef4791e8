package kernel

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tick-kernel/tick/kernel/wire"
)

// Request is one decoded request with the time its socket received it.
type Request struct {
	Msg *wire.Message
	// Received is when the receive loop read the message; stop_on_error
	// aborts executes received before a failed cell's reply was sent.
	Received time.Time
	// Refused, when set, is why the request is answered with an error
	// reply instead of being handled (a header over wire.MaxHeader).
	Refused error
}

// Type returns the request's msg_type.
func (r *Request) Type() string { return r.Msg.Header.MsgType }

// Decode unmarshals the request's content into v.
func (r *Request) Decode(v any) error {
	if len(r.Msg.Content) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Msg.Content, v); err != nil {
		return fmt.Errorf("kernel: decoding %s content: %w", r.Type(), err)
	}
	return nil
}

// Responder is how a handler answers one request: replies go back on the
// request's socket to its sender, publications go to iopub; both carry the
// request's header as parent header. Publish must be safe for concurrent
// use (goroutines of a running cell publish output).
type Responder interface {
	// Reply sends msgType (usually "<x>_reply") with content.
	Reply(msgType string, content any) error
	// Publish sends an iopub message (status, stream, display_data ...).
	// Stream output goes through Stream so it can be coalesced.
	Publish(msgType string, content any)
	// Stream publishes stream output ("stdout" or "stderr").
	Stream(name, text string)
	// Input asks the frontend for a line on the stdin channel.
	Input(prompt string, password bool) (string, error)
}

// Handler serves one kind of request.
type Handler interface {
	Serve(w Responder, r *Request)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(w Responder, r *Request)

// Serve calls f(w, r).
func (f HandlerFunc) Serve(w Responder, r *Request) { f(w, r) }

// Mux dispatches requests by msg_type. Around every request it publishes
// status busy, then idle (in a defer); a panicking handler is recovered:
// its stack goes to the log and the client gets a status "error" reply.
type Mux struct {
	handlers map[string]Handler
	log      io.Writer
}

// NewMux returns an empty Mux that logs to log (nil discards).
func NewMux(log io.Writer) *Mux {
	if log == nil {
		log = io.Discard
	}
	return &Mux{handlers: map[string]Handler{}, log: log}
}

// Handle registers h for msgType. As http.ServeMux does, it panics when
// msgType is empty, h is nil, or msgType already has a handler: a
// registration table with a silent replacement would hide a wiring bug.
func (m *Mux) Handle(msgType string, h Handler) {
	switch {
	case msgType == "":
		panic("kernel: Mux.Handle: empty message type")
	case h == nil:
		panic("kernel: Mux.Handle: nil handler for " + msgType)
	}
	if _, dup := m.handlers[msgType]; dup {
		panic("kernel: Mux.Handle: multiple registrations for " + msgType)
	}
	m.handlers[msgType] = h
}

// HandleFunc registers f for msgType, as Handle does.
func (m *Mux) HandleFunc(msgType string, f func(w Responder, r *Request)) {
	if f == nil {
		panic("kernel: Mux.HandleFunc: nil handler for " + msgType)
	}
	m.Handle(msgType, HandlerFunc(f))
}

// Types returns the registered message types (for tests and logs).
func (m *Mux) Types() []string {
	out := make([]string, 0, len(m.handlers))
	for t := range m.handlers {
		out = append(out, t)
	}
	return out
}

// Serve dispatches r to its handler.
func (m *Mux) Serve(w Responder, r *Request) {
	w.Publish("status", map[string]string{"execution_state": "busy"})
	defer w.Publish("status", map[string]string{"execution_state": "idle"})
	if r.Refused != nil {
		_ = w.Reply(replyType(r.Type()), map[string]any{
			"status": "error", "ename": "BadRequest", "evalue": r.Refused.Error(), "traceback": []string{"BadRequest: " + r.Refused.Error()},
		})
		return
	}
	h, ok := m.handlers[r.Type()]
	if !ok {
		fmt.Fprintf(m.log, "tick: ignoring message of unknown type %q (no handler registered)\n", r.Type())
		return
	}
	defer func() {
		if v := recover(); v != nil {
			stack := string(debug.Stack())
			fmt.Fprintf(m.log, "tick: panic while handling %s: %v\n%s\n", r.Type(), v, stack)
			_ = w.Reply(replyType(r.Type()), map[string]any{
				"status":    "error",
				"ename":     "KernelError",
				"evalue":    fmt.Sprintf("tick failed handling %s: %v (the kernel is still running; please report this with the kernel log)", r.Type(), v),
				"traceback": strings.Split(stack, "\n"),
			})
		}
	}()
	h.Serve(w, r)
}

// replyType maps "x_request" to "x_reply".
func replyType(msgType string) string {
	return strings.TrimSuffix(msgType, "_request") + "_reply"
}
