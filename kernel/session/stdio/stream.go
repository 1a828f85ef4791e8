package stdio

import (
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/display"
)

// flushEvery is how long stream text may wait before it is sent to the
// Sink. The contract promises at most 50 ms.
const flushEvery = 20 * time.Millisecond

// flushSize is the amount of buffered text that triggers an immediate flush.
const flushSize = 8 << 10

// maxPending bounds output written while no cell runs (kept for the next cell).
const maxPending = 64 << 10

// streamer coalesces the stream output of one running cell and forwards it
// to the cell's Sink in order, at least every flushEvery.
type streamer struct {
	mu      sync.Mutex
	sink    Sink
	segs    []segment // pending text, consecutive writes to one stream merged
	size    int
	timer   *time.Timer
	closed  bool
	lastOut string // last line fragment written to stdout: the prompt of an input request
	shown   int    // outputs sent to the sink since the cell began or was last cleared
}

type segment struct{ name, text string }

func (s *streamer) write(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if name == "stdout" {
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			s.lastOut = text[i+1:]
		} else {
			s.lastOut += text
		}
	}
	if n := len(s.segs); n > 0 && s.segs[n-1].name == name {
		s.segs[n-1].text += text
	} else {
		s.segs = append(s.segs, segment{name, text})
	}
	s.size += len(text)
	if s.size >= flushSize {
		s.flushLocked()
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(flushEvery, s.flush)
	}
}

func (s *streamer) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
}

// flushLocked sends pending text. The sink is called with s.mu held so that
// text from concurrent writers keeps its order.
func (s *streamer) flushLocked() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	for _, seg := range s.segs {
		s.sink.Stream(seg.name, seg.text)
		s.shown++
	}
	s.segs, s.size = s.segs[:0], 0
}

// pass flushes the pending text, then calls f with the sink, all under
// s.mu: output sent around the buffer (display calls, magics writing to the
// Sink) lands after the text printed before it and before text printed
// after it, even when other goroutines print meanwhile.
func (s *streamer) pass(f func(Sink)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	f(s.sink)
}

// Cell is the output of the running cell: the Sink the cell's code sees
// (installed with display.Use) and magics write to. Each call first
// flushes the stream text the cell buffered, so that, for example,
// fmt.Println("a"); display.Clear(true); fmt.Println("b") leaves only
// "b", and text printed before display.HTML shows above the HTML.
type Cell struct{ st *streamer }

// Stream sends text at once, after the buffered text.
func (o *Cell) Stream(name, text string) {
	o.st.pass(func(k Sink) { k.Stream(name, text) })
}

// Publish flushes the buffered text, then publishes d.
func (o *Cell) Publish(d display.Data) {
	o.st.pass(func(k Sink) { k.Publish(d); o.st.shown++ })
}

// Update flushes the buffered text, then updates the output d.ID.
func (o *Cell) Update(d display.Data) { o.st.pass(func(k Sink) { k.Update(d) }) }

// Clear flushes the buffered text, then clears the cell's output.
func (o *Cell) Clear(wait bool) {
	o.st.pass(func(k Sink) { k.Clear(wait); o.st.shown = 0 })
}

// Shown returns the number of outputs (stream text included) the cell has
// sent since it began or was last cleared.
func (o *Cell) Shown() (n int) {
	o.st.pass(func(Sink) { n = o.st.shown })
	return n
}

// prompt flushes the pending text and returns the prompt of an input
// request: the text printed since the last newline, which then goes out
// only as the prompt (a front end shows the prompt itself: sent in the
// stream too, it showed twice, "name? name? "). When the timer already
// flushed it, the prompt is empty: it is on screen.
func (s *streamer) prompt() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lastOut
	s.lastOut = ""
	if n := len(s.segs); p != "" && n > 0 && s.segs[n-1].name == "stdout" && strings.HasSuffix(s.segs[n-1].text, p) {
		last := &s.segs[n-1]
		last.text = strings.TrimSuffix(last.text, p)
		s.size -= len(p)
		if last.text == "" {
			s.segs = s.segs[:n-1]
		}
		s.flushLocked()
		return p
	}
	s.flushLocked()
	return ""
}

// close flushes and detaches the streamer: later writes are dropped by it
// (the session routes them elsewhere).
func (s *streamer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.closed = true
}
