// Package kerneltest provides test doubles for tick's Jupyter handlers, in
// the spirit of net/http/httptest: a Recorder that captures the replies and
// iopub publications of a request (so handlers are tested in-process,
// without sockets), NewRequest to build requests, and Runner, a scripted
// session.Runner.
package kerneltest

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/wire"
)

// Sent is one captured message. Content is the JSON round trip of what
// the handler sent, so tests see exactly what a client would decode.
type Sent struct {
	MsgType string
	Content map[string]any
}

// Recorder implements kernel.Responder and records everything.
type Recorder struct {
	mu        sync.Mutex
	replies   []Sent
	published []Sent
	prompts   []string
	// Answer answers Input; nil answers with an error.
	Answer func(prompt string, password bool) (string, error)
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{} }

func roundTrip(content any) map[string]any {
	b, err := json.Marshal(content)
	if err != nil {
		return map[string]any{"kerneltest_error": err.Error()}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"kerneltest_error": err.Error()}
	}
	return m
}

// Reply records a reply.
func (r *Recorder) Reply(msgType string, content any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies = append(r.replies, Sent{msgType, roundTrip(content)})
	return nil
}

// Publish records an iopub message.
func (r *Recorder) Publish(msgType string, content any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.published = append(r.published, Sent{msgType, roundTrip(content)})
}

// Stream records stream output as an iopub "stream" message.
func (r *Recorder) Stream(name, text string) {
	r.Publish("stream", map[string]string{"name": name, "text": text})
}

// Input records the prompt and calls Answer.
func (r *Recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	r.prompts = append(r.prompts, prompt)
	answer := r.Answer
	r.mu.Unlock()
	if answer == nil {
		return "", fmt.Errorf("kerneltest: no Answer set for input prompt %q", prompt)
	}
	return answer(prompt, password)
}

// Replies returns the recorded replies.
func (r *Recorder) Replies() []Sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Sent(nil), r.replies...)
}

// Published returns the recorded iopub messages.
func (r *Recorder) Published() []Sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Sent(nil), r.published...)
}

// Prompts returns the prompts Input was called with.
func (r *Recorder) Prompts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.prompts...)
}

// Reply1 returns the only reply, failing the test (via fatalf) unless
// there is exactly one.
func (r *Recorder) Reply1(fatalf func(format string, args ...any)) Sent {
	rs := r.Replies()
	if len(rs) != 1 {
		fatalf("kerneltest: got %d replies, want 1: %+v", len(rs), rs)
		return Sent{}
	}
	return rs[0]
}

// Types returns the msg_types of the published messages, in order.
func (r *Recorder) Types() []string {
	var out []string
	for _, s := range r.Published() {
		out = append(out, s.MsgType)
	}
	return out
}

// Of returns the published messages of one type.
func (r *Recorder) Of(msgType string) []Sent {
	var out []Sent
	for _, s := range r.Published() {
		if s.MsgType == msgType {
			out = append(out, s)
		}
	}
	return out
}

// Reset forgets everything recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies, r.published, r.prompts = nil, nil, nil
}

// NewRequest builds a request of msgType with content (marshalled to
// JSON), received now.
func NewRequest(msgType string, content any) *kernel.Request {
	raw, err := json.Marshal(content)
	if err != nil {
		panic(fmt.Sprintf("kerneltest: NewRequest content: %v", err))
	}
	return &kernel.Request{
		Msg:      &wire.Message{Header: wire.NewHeader(msgType, "kerneltest"), Content: raw},
		Received: time.Now(),
	}
}

var _ kernel.Responder = (*Recorder)(nil)
