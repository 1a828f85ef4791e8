// Package sinktest provides Recorder, the one test double for what a cell
// shows: a session.Sink (and the magics' session.CellSink) that records
// every call in order, in the spirit of net/http/httptest.ResponseRecorder.
// Tests run cells or magics into a Recorder and read back the text of a
// stream, the outputs published, updated and cleared, or the whole order
// of events. It lives apart from package kerneltest, which imports the
// kernel, so that the session's own tests can use it too.
package sinktest

import (
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/display"
)

// Kind says which call an Event records.
type Kind int

// The calls of a Sink.
const (
	Stream  Kind = iota // Stream(name, text)
	Publish             // Publish(data)
	Update              // Update(data)
	Clear               // Clear(wait)
)

// Event is one recorded call.
type Event struct {
	Kind Kind
	// Name and Text are a Stream's: "stdout" or "stderr", and the text.
	Name, Text string
	// Data is a Publish's or an Update's.
	Data display.Data
	// Wait is a Clear's.
	Wait bool
	// At is when the call came.
	At time.Time
}

// Recorder records what a cell shows. The zero value is ready to use and
// counts its outputs (Shown); it is safe for concurrent use.
type Recorder struct {
	// Uncounted makes Shown report -1, as a sink that does not count its
	// outputs.
	Uncounted bool

	mu     sync.Mutex
	events []Event
	shown  int // outputs since the last Clear
}

func (r *Recorder) add(e Event) {
	e.At = time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	switch e.Kind {
	case Stream, Publish:
		r.shown++
	case Clear:
		r.shown = 0
	}
}

// Stream records text written to stream name.
func (r *Recorder) Stream(name, text string) { r.add(Event{Kind: Stream, Name: name, Text: text}) }

// Publish records a published output.
func (r *Recorder) Publish(d display.Data) { r.add(Event{Kind: Publish, Data: d}) }

// Update records an update of the output d.ID.
func (r *Recorder) Update(d display.Data) { r.add(Event{Kind: Update, Data: d}) }

// Clear records a clear of the cell's output.
func (r *Recorder) Clear(wait bool) { r.add(Event{Kind: Clear, Wait: wait}) }

// Shown is the number of outputs (stream writes and publishes) since the
// last Clear, or -1 when Uncounted.
func (r *Recorder) Shown() int {
	if r.Uncounted {
		return -1
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.shown
}

// Events returns the recorded calls, in order.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Of returns the recorded calls of one kind, in order.
func (r *Recorder) Of(k Kind) []Event {
	var out []Event
	for _, e := range r.Events() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Text returns all the text written to stream name ("" for all streams),
// in order.
func (r *Recorder) Text(name string) string {
	var b strings.Builder
	for _, e := range r.Of(Stream) {
		if name == "" || e.Name == name {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// Published returns the published outputs, in order.
func (r *Recorder) Published() []display.Data { return r.data(Publish) }

// Updates returns the updates, in order.
func (r *Recorder) Updates() []display.Data { return r.data(Update) }

func (r *Recorder) data(k Kind) []display.Data {
	var out []display.Data
	for _, e := range r.Of(k) {
		out = append(out, e.Data)
	}
	return out
}

// Clears returns the wait flag of each Clear, in order.
func (r *Recorder) Clears() []bool {
	var out []bool
	for _, e := range r.Of(Clear) {
		out = append(out, e.Wait)
	}
	return out
}

// Visible counts the publishes and updates after the last Clear: what a
// person still sees of them (a progress line published, then cleared,
// is not).
func (r *Recorder) Visible() int {
	n := 0
	for _, e := range r.Events() {
		switch e.Kind {
		case Publish, Update:
			n++
		case Clear:
			n = 0
		}
	}
	return n
}

// Reset forgets everything recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events, r.shown = nil, 0
}
