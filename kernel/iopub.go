package kernel

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

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
//
//   - When the queue holds maxQueued messages, the oldest queued stream
//     chunk is dropped to make room (its size is counted and reported to
//     the user on stderr with the next message of that cell). Status,
//     execute_input, execute_result, display and error messages are never
//     dropped: when the queue is full of them, the producer waits.
//
//   - The queue is bounded in bytes too (maxQueuedBytes): past it every
//     producer waits, so a cell printing 300 MB holds at most that much
//     in the queue whatever the subscribers' speed.
//
//   - Stream text is split into messages of at most streamSplit bytes (on
//     UTF-8 boundaries), so one print of any size travels.
//
//   - Any other message whose content is over maxIOPubMessage (what every
//     subscriber is guaranteed to be able to queue, see transport.go) is
//     not sent: an error output in the cell says what was too big and
//     what to do instead. Output is never silently lost, and the cell's
//     idle status always follows.
//
// With the non-blocking iopub transport the writer drains the queue at
// memory speed, so the queue fills only when encoding falls behind a cell
// printing in a tight loop.
const (
	maxQueued       = 1024
	maxStreamChunk  = 8 << 10
	streamSplit     = 1 << 20
	maxQueuedBytes  = 64 << 20
	maxIOPubMessage = 32 << 20
)

// outMsg is one queued iopub message.
type outMsg struct {
	msgType string
	parent  wire.Header
	content json.RawMessage
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
	bytes   int            // content bytes queued
	limit   int            // bound on bytes (maxQueuedBytes; tests lower it)
	dropped map[string]int // stream bytes dropped, by parent msg_id
	busy    bool           // the writer holds a message it has not sent yet
	burst   int            // bytes sent since the queue was last empty
	closed  bool
	done    chan struct{}
}

func newPublisher(send func([][]byte) error, key []byte, session string, log io.Writer) *publisher {
	p := &publisher{send: send, key: key, session: session, log: log,
		dropped: map[string]int{}, done: make(chan struct{}), limit: maxQueuedBytes}
	p.cond = sync.NewCond(&p.mu)
	go p.run()
	return p
}

// Publish queues a message; it waits only when the queue is full of
// messages that must not be dropped.
func (p *publisher) Publish(msgType string, parent wire.Header, content any) {
	raw, err := json.Marshal(content)
	if err != nil {
		fmt.Fprintf(p.log, "tick: iopub %s: encoding content: %v\n", msgType, err)
		msgType, raw = tooBig(msgType, fmt.Sprintf("could not be encoded (%v)", err))
	} else if len(raw) > maxIOPubMessage {
		fmt.Fprintf(p.log, "tick: iopub %s of %d bytes is over the limit of %d bytes; sent an error instead\n", msgType, len(raw), maxIOPubMessage)
		msgType, raw = tooBig(msgType, fmt.Sprintf("is %s, more than the %s one iopub message may carry", mib(len(raw)), mib(maxIOPubMessage)))
	}
	p.push(&outMsg{msgType: msgType, parent: parent, content: raw})
}

// tooBig returns the error output that replaces an iopub message that
// cannot be sent.
func tooBig(msgType, why string) (string, json.RawMessage) {
	value := fmt.Sprintf("this cell's %s output %s, so it was not sent; write it to a file and display a link or a summary, "+
		"or show a smaller version (fewer points, a lower resolution, a slice)", msgType, why)
	raw, _ := json.Marshal(map[string]any{"ename": "OutputTooLarge", "evalue": value, "traceback": []string{"OutputTooLarge: " + value}})
	return "error", raw
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Stream queues a chunk of stream output, coalescing it with the newest
// queued chunk of the same stream when possible.
func (p *publisher) Stream(parent wire.Header, name, text string) {
	for text != "" {
		piece := text
		if len(piece) > streamSplit {
			cut := streamSplit
			for cut > streamSplit-utf8.UTFMax && !utf8.RuneStart(text[cut]) {
				cut--
			}
			piece = text[:cut]
		}
		text = text[len(piece):]
		p.streamPiece(parent, name, piece)
	}
}

func (p *publisher) streamPiece(parent wire.Header, name, text string) {
	p.mu.Lock()
	if n := len(p.queue); n > 0 {
		last := p.queue[n-1]
		if last.msgType == "stream" && last.streamName == name && last.parent.MsgID == parent.MsgID &&
			len(last.text)+len(text) <= maxStreamChunk {
			last.text = append(last.text, text...)
			p.bytes += len(text)
			p.mu.Unlock()
			return
		}
	}
	p.mu.Unlock()
	p.push(&outMsg{msgType: "stream", parent: parent, streamName: name, text: []byte(text)})
}

// size is what a queued message counts toward maxQueuedBytes.
func (m *outMsg) size() int { return len(m.content) + len(m.text) }

func (p *publisher) push(m *outMsg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed {
		if len(p.queue) >= maxQueued && !p.dropOldestStream() {
			p.cond.Wait()
			continue
		}
		if p.bytes > 0 && p.bytes+m.size() > p.limit {
			p.cond.Wait()
			continue
		}
		break
	}
	if p.closed {
		return
	}
	p.queue = append(p.queue, m)
	p.bytes += m.size()
	p.cond.Broadcast()
}

// dropOldestStream removes the oldest queued stream chunk; p.mu is held.
func (p *publisher) dropOldestStream() bool {
	for i, m := range p.queue {
		if m.msgType == "stream" {
			p.dropped[m.parent.MsgID] += len(m.text)
			p.bytes -= m.size()
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
		p.bytes -= m.size()
		if len(p.queue) == 0 {
			p.queue = nil // a burst's backing array is not kept
		}
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
		p.burst += m.size()
		if len(p.queue) == 0 {
			if p.burst > burstBytes {
				releaseSoon() // the burst's buffers are garbage now
			}
			p.burst = 0
		}
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

func (p *publisher) write(m *outMsg) {
	raw := m.content
	if m.msgType == "stream" {
		var err error
		raw, err = json.Marshal(map[string]string{"name": m.streamName, "text": string(m.text)})
		if err != nil {
			fmt.Fprintf(p.log, "tick: dropping iopub stream: encoding content: %v\n", err)
			return
		}
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
