package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/tick-kernel/tick/kernel/wire"
)

// openSender is a gated sender whose gate is open and whose start
// signals are drained.
func openSender(t *testing.T) *gatedSender {
	g := newGatedSender()
	close(g.gate)
	drain(t, g)
	return g
}

func drain(t *testing.T, g *gatedSender) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-g.started:
			case <-stop:
				return
			}
		}
	}()
}

// A display over the per-message limit becomes an error output in the
// cell; it was silently dropped together with everything after it, idle
// included.
func TestOversizedDisplayBecomesAnError(t *testing.T) {
	g := openSender(t)
	p := newPublisher(g.send, nil, "s", io.Discard)
	parent := wire.NewHeader("execute_request", "c")
	big := strings.Repeat("x", maxIOPubMessage+1)
	p.Publish("display_data", parent, map[string]any{"data": map[string]any{"text/plain": big}})
	p.Stream(parent, "stdout", "after")
	p.Publish("status", parent, map[string]string{"execution_state": "idle"})
	if !p.Flush(30 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	var types []string
	var evalue string
	for _, m := range g.got() {
		types = append(types, m.Header.MsgType)
		if m.Header.MsgType == "error" {
			var c struct{ Evalue string }
			_ = json.Unmarshal(m.Content, &c)
			evalue = c.Evalue
		}
	}
	if strings.Join(types, " ") != "error stream status" {
		t.Fatalf("sent %v, want error, stream, status", types)
	}
	if !strings.Contains(evalue, "display_data output is 32.0 MiB") || !strings.Contains(evalue, "write it to a file") {
		t.Errorf("error text %q does not say what and what to do", evalue)
	}
	p.Close(time.Second)
}

// One print of any size is split into bounded messages, on UTF-8
// boundaries, and arrives whole and in order.
func TestStreamIsSplitIntoBoundedChunks(t *testing.T) {
	g := openSender(t)
	p := newPublisher(g.send, nil, "s", io.Discard)
	parent := wire.NewHeader("execute_request", "c")
	text := strings.Repeat("héllo wörld ✓ ", 400_000) // 6.8 MB of multi-byte runes
	p.Stream(parent, "stdout", text)
	if !p.Flush(30 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	var got strings.Builder
	n := 0
	for _, m := range g.got() {
		_, chunk := streamText(t, m)
		if len(chunk) > streamSplit {
			t.Fatalf("a stream message of %d bytes, over %d", len(chunk), streamSplit)
		}
		got.WriteString(chunk)
		n++
	}
	if got.String() != text {
		t.Fatalf("the text arrived changed (%d of %d bytes)", got.Len(), len(text))
	}
	if n < len(text)/streamSplit {
		t.Errorf("%d messages for %d bytes", n, len(text))
	}
	p.Close(time.Second)
}

// The queue is bounded in bytes: a producer writing far more than
// maxQueuedBytes while the writer is blocked waits instead of queueing.
func TestPublisherQueueIsBoundedInBytes(t *testing.T) {
	g := newGatedSender()
	p := newPublisher(g.send, nil, "s", io.Discard)
	p.mu.Lock()
	p.limit = 1 << 20 // 1 MiB here (64 MiB in the kernel), so the test is quick under -race
	p.mu.Unlock()
	parent := wire.NewHeader("execute_request", "c")
	p.Publish("status", parent, map[string]string{"execution_state": "busy"})
	<-g.started
	chunk := strings.Repeat("y", 64<<10)
	done := make(chan struct{})
	go func() {
		for i := range 200 { // 12.5 MiB
			p.Stream(parent, []string{"stdout", "stderr"}[i%2], chunk)
		}
		close(done)
	}()
	time.Sleep(200 * time.Millisecond)
	p.mu.Lock()
	queued := p.bytes
	p.mu.Unlock()
	if queued > 1<<20 {
		t.Errorf("%d bytes queued, over the bound %d", queued, 1<<20)
	}
	select {
	case <-done:
		t.Fatal("the producer queued 12.5 MiB behind a blocked writer")
	default:
	}
	close(g.gate)
	drain(t, g)
	<-done
	if !p.Flush(30 * time.Second) {
		t.Fatal("publisher did not drain")
	}
	total := 0
	for _, m := range g.got()[1:] {
		_, text := streamText(t, m)
		total += len(text)
	}
	if total != 200*len(chunk) {
		t.Errorf("delivered %d of %d bytes: waiting must not drop", total, 200*len(chunk))
	}
	p.Close(time.Second)
}

// A subscriber that reads slowly but steadily is no longer waited for
// once it has held the publisher back for the lag budget: it does not set
// the pace for a fast one; when it stops taking bytes for stallTimeout
// (its backlog is far beyond what it reads) it is disconnected.
func TestLaggingSubscriberDoesNotSetThePace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, pub, fast, slow := twoSubscribers(ctx, t, "tick-tcp-lagtest")
	var slowGot atomic.Int64
	go func() { // 10 messages a second: steady, far too slow
		for {
			if _, err := slow.Recv(); err != nil {
				return
			}
			slowGot.Add(1)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	got := make(chan int, 1)
	go func() {
		count := 0
		for {
			m, err := fast.Recv()
			if err != nil {
				return
			}
			if bytes.HasPrefix(m.Frames[0], []byte("msg")) {
				count++
				if bytes.Equal(m.Frames[0], []byte("msg-last")) {
					got <- count
					return
				}
			}
		}
	}()
	const n = 30000 // 30 MB
	payload := bytes.Repeat([]byte("x"), 1000)
	for i := range n - 1 {
		tr.waitForRoom(ctx)
		_ = pub.SendMulti(zmq4.NewMsgFrom([]byte(fmt.Sprintf("msg-%d", i)), payload))
	}
	_ = pub.SendMulti(zmq4.NewMsgFrom([]byte("msg-last"), payload))
	// At the slow reader's pace (10 messages a second) the fast one would
	// get its 30000 messages after about an hour, the slow one close behind
	// it (only the buffers between them apart): so when the fast one has
	// them all, the slow one must have far fewer. Counts, not times: load
	// slows both readers alike.
	select {
	case c := <-got:
		if c != n {
			t.Errorf("fast subscriber got %d of %d", c, n)
		}
		if s := slowGot.Load(); s > n/2 {
			t.Errorf("the slow subscriber had %d messages when the fast one had all %d: they went at one pace", s, n)
		}
	case <-time.After(5 * time.Minute): // a hang guard: the pace above is an hour
		t.Fatal("the fast subscriber went at the slow one's pace")
	}
	waitFor(t, "the lagging subscriber to be dropped", func() bool {
		tr.waitForRoom(ctx) // as the next publication does
		return tr.Peers() == 1
	})
}
