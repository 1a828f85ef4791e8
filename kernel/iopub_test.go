package kernel

import (
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel/wire"
)

// gatedSender is a send function that blocks until the gate opens: a
// subscriber that stopped reading, seen from the writer goroutine.
type gatedSender struct {
	gate    chan struct{}
	started chan struct{} // receives once per send call that begins
	mu      sync.Mutex
	msgs    []*wire.Message
}

func newGatedSender() *gatedSender {
	return &gatedSender{gate: make(chan struct{}), started: make(chan struct{}, maxQueued*4)}
}

func (g *gatedSender) send(frames [][]byte) error {
	g.started <- struct{}{}
	<-g.gate
	m, err := wire.Decode(frames, nil)
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.msgs = append(g.msgs, m)
	g.mu.Unlock()
	return nil
}

func (g *gatedSender) got() []*wire.Message {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]*wire.Message(nil), g.msgs...)
}

func streamText(t *testing.T, m *wire.Message) (name, text string) {
	var c struct{ Name, Text string }
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatal(err)
	}
	return c.Name, c.Text
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestPublisherCoalescesStreams(t *testing.T) {
	g := newGatedSender()
	p := newPublisher(g.send, nil, "s", io.Discard)
	parent := wire.NewHeader("execute_request", "c")
	p.Publish("status", parent, map[string]string{"execution_state": "busy"})
	<-g.started // the writer holds "busy"; everything below queues
	for range 100 {
		p.Stream(parent, "stdout", "ab")
	}
	p.Stream(parent, "stderr", "E")
	p.Stream(parent, "stdout", strings.Repeat("x", maxStreamChunk)) // too big to merge
	close(g.gate)
	if !p.Flush(10 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	got := g.got()
	if len(got) != 4 {
		t.Fatalf("sent %d messages, want 4 (busy, one coalesced stdout, stderr, big stdout)", len(got))
	}
	if name, text := streamText(t, got[1]); name != "stdout" || text != strings.Repeat("ab", 100) {
		t.Errorf("coalesced = %s %q", name, text)
	}
	if got[1].ParentHeader != parent {
		t.Errorf("parent header lost: %+v", got[1].ParentHeader)
	}
	if name, _ := streamText(t, got[2]); name != "stderr" {
		t.Errorf("third message %s, want stderr", name)
	}
	p.Close(time.Second)
}

func TestPublisherDropsOldStreamNeverStatus(t *testing.T) {
	g := newGatedSender()
	p := newPublisher(g.send, nil, "s", io.Discard)
	parent := wire.NewHeader("execute_request", "c")
	p.Publish("status", parent, map[string]string{"execution_state": "busy"})
	<-g.started
	// Alternate stream names so nothing coalesces; far more than fits.
	const n = maxQueued * 2
	for i := range n {
		name := []string{"stdout", "stderr"}[i%2]
		p.Stream(parent, name, "0123456789")
		if i%100 == 0 {
			p.Publish("display_data", parent, map[string]any{"data": map[string]any{"text/plain": "keep"}})
		}
	}
	p.Publish("status", parent, map[string]string{"execution_state": "idle"})
	close(g.gate)
	if !p.Flush(10 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	var displays, streamBytes int
	var notice, idle bool
	for _, m := range g.got() {
		switch m.Header.MsgType {
		case "display_data":
			displays++
		case "stream":
			_, text := streamText(t, m)
			if strings.Contains(text, "were dropped") {
				notice = true
			} else {
				streamBytes += len(text)
			}
		case "status":
			idle = idle || strings.Contains(string(m.Content), "idle")
		}
	}
	if displays != (n+99)/100 || !idle {
		t.Errorf("kept %d display_data (want %d), idle %v: these must never drop", displays, (n+99)/100, idle)
	}
	if streamBytes >= n*10 || streamBytes == 0 {
		t.Errorf("stream bytes delivered = %d of %d; want some dropped, some kept", streamBytes, n*10)
	}
	if !notice {
		t.Error("no notice told the user that output was dropped")
	}
	p.Close(time.Second)
}

func TestPublisherBlocksWhenFullOfMustKeep(t *testing.T) {
	g := newGatedSender()
	p := newPublisher(g.send, nil, "s", io.Discard)
	parent := wire.NewHeader("execute_request", "c")
	p.Publish("status", parent, map[string]string{"execution_state": "busy"})
	<-g.started
	for range maxQueued {
		p.Publish("display_data", parent, map[string]any{})
	}
	done := make(chan struct{})
	go func() {
		p.Publish("error", parent, map[string]any{"ename": "E"})
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("Publish returned although the queue was full of messages that must not drop")
	case <-time.After(50 * time.Millisecond):
	}
	close(g.gate)
	<-done
	if !p.Flush(10 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	if got := g.got(); len(got) != maxQueued+2 || got[len(got)-1].Header.MsgType != "error" {
		t.Errorf("sent %d messages (last %s), want %d ending with error", len(got), got[len(got)-1].Header.MsgType, maxQueued+2)
	}
	p.Close(time.Second)
}
