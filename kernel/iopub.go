package kernel

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tick-kernel/tick/kernel/wire"
)

// iopub back-pressure (see also transport.go):
//
// Everything published on iopub goes through one bounded queue owned by one
// writer goroutine, the only user of the PUB socket. Producers (the
// executor, goroutines of a running cell, the control loop) never touch the
// socket.
//
//   - Stream chunks are coalesced: a chunk for the same parent and stream
//     name as the newest queued stream message is appended to it, up to
//     maxStreamChunk bytes. The session already flushes its writers about
//     every 50 ms; this merges what piles up while the writer is behind, so
//     a fast writer adds no latency and a slow one sends fewer, larger
//     messages.
//   - When the queue holds maxQueued messages, the oldest queued stream
//     chunk is dropped to make room (its size is counted and reported to
//     the user on stderr with the next message of that cell). Status,
//     execute_input, execute_result, display and error messages are never
//     dropped: when the queue is full of them, the producer waits.
//
// With the non-blocking iopub transport the writer drains the queue at
// memory speed, so the queue fills only when encoding falls behind a cell
// printing in a tight loop.
const (
	maxQueued      = 1024
	maxStreamChunk = 8 << 10
)

// outMsg is one queued iopub message.
type outMsg struct {
	msgType string
	parent  wire.Header
	content any
	// stream content, kept apart so chunks can be coalesced.
	streamName string
	text       []byte
}

// publisher is the iopub queue and its writer.
type publisher struct {
	send    func(frames [][]byte) error
	key     []byte
	session string
	log     io.Writer

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []*outMsg
	dropped map[string]int // stream bytes dropped, by parent msg_id
	busy    bool           // the writer holds a message it has not sent yet
	closed  bool
	done    chan struct{}
}

func newPublisher(send func([][]byte) error, key []byte, session string, log io.Writer) *publisher {
	p := &publisher{send: send, key: key, session: session, log: log,
		dropped: map[string]int{}, done: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	go p.run()
	return p
}

// Publish queues a message; it waits only when the queue is full of
// messages that must not be dropped.
func (p *publisher) Publish(msgType string, parent wire.Header, content any) {
	p.push(&outMsg{msgType: msgType, parent: parent, content: content})
}

// Stream queues a chunk of stream output, coalescing it with the newest
// queued chunk of the same stream when possible.
func (p *publisher) Stream(parent wire.Header, name, text string) {
	if text == "" {
		return
	}
	p.mu.Lock()
	if n := len(p.queue); n > 0 {
		last := p.queue[n-1]
		if last.msgType == "stream" && last.streamName == name && last.parent.MsgID == parent.MsgID &&
			len(last.text)+len(text) <= maxStreamChunk {
			last.text = append(last.text, text...)
			p.mu.Unlock()
			return
		}
	}
	p.mu.Unlock()
	p.push(&outMsg{msgType: "stream", parent: parent, streamName: name, text: []byte(text)})
}

func (p *publisher) push(m *outMsg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.queue) >= maxQueued && !p.closed {
		if p.dropOldestStream() {
			break
		}
		p.cond.Wait()
	}
	if p.closed {
		return
	}
	p.queue = append(p.queue, m)
	p.cond.Broadcast()
}

// dropOldestStream removes the oldest queued stream chunk; p.mu is held.
func (p *publisher) dropOldestStream() bool {
	for i, m := range p.queue {
		if m.msgType == "stream" {
			p.dropped[m.parent.MsgID] += len(m.text)
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			return true
		}
	}
	return false
}

func (p *publisher) run() {
	defer close(p.done)
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.queue) == 0 {
			p.mu.Unlock()
			return
		}
		m := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		lost := p.dropped[m.parent.MsgID]
		delete(p.dropped, m.parent.MsgID)
		p.busy = true
		p.cond.Broadcast()
		p.mu.Unlock()

		if lost > 0 {
			p.write(&outMsg{msgType: "stream", parent: m.parent, streamName: "stderr",
				text: fmt.Appendf(nil, "\n[tick: %d bytes of output were dropped because the frontend read iopub too slowly; write less often or to a file]\n", lost)})
		}
		p.write(m)

		p.mu.Lock()
		p.busy = false
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

func (p *publisher) write(m *outMsg) {
	content := m.content
	if m.msgType == "stream" {
		content = map[string]string{"name": m.streamName, "text": string(m.text)}
	}
	raw, err := json.Marshal(content)
	if err != nil {
		fmt.Fprintf(p.log, "tick: dropping iopub %s: encoding content: %v\n", m.msgType, err)
		return
	}
	msg := &wire.Message{
		Identities:   [][]byte{[]byte("kernel." + m.msgType)},
		Header:       wire.NewHeader(m.msgType, p.session),
		ParentHeader: m.parent,
		Content:      raw,
	}
	frames, err := wire.Encode(msg, p.key)
	if err != nil {
		fmt.Fprintf(p.log, "tick: dropping iopub %s: %v\n", m.msgType, err)
		return
	}
	if err := p.send(frames); err != nil {
		fmt.Fprintf(p.log, "tick: sending iopub %s: %v\n", m.msgType, err)
	}
}

// Flush waits until everything queued has been handed to the socket, or
// until timeout; it reports whether the queue drained.
func (p *publisher) Flush(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for (len(p.queue) > 0 || p.busy) && time.Now().Before(deadline) {
		p.cond.Wait()
	}
	return len(p.queue) == 0 && !p.busy
}

// Close stops accepting messages, lets the writer send what is queued and
// waits for it (at most timeout).
func (p *publisher) Close(timeout time.Duration) {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	select {
	case <-p.done:
	case <-time.After(timeout):
	}
}
