package kernel

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// TestSlowSubscriberDoesNotStallOthers publishes far more than a stalled
// subscriber's buffers hold: the reading subscriber must still get every
// message (the publisher waits for it, never for the stalled one), and the
// stalled one is disconnected after stallTimeout.
func TestSlowSubscriberDoesNotStallOthers(t *testing.T) {
	tr := newAsyncTransport("tcp")
	if err := zmq4.RegisterTransport("tick-tcp-slowtest", tr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pub := zmq4.NewPub(ctx)
	defer pub.Close()
	if err := pub.Listen("tick-tcp-slowtest://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ep := fmt.Sprintf("tcp://127.0.0.1:%d", pub.Addr().(*net.TCPAddr).Port)

	fast, slow := zmq4.NewSub(ctx), zmq4.NewSub(ctx) // slow never calls Recv
	defer fast.Close()
	defer slow.Close()
	for _, s := range []zmq4.Socket{fast, slow} {
		if err := s.Dial(ep); err != nil {
			t.Fatal(err)
		}
		if err := s.SetOption(zmq4.OptionSubscribe, ""); err != nil {
			t.Fatal(err)
		}
	}
	// Both subscriptions must reach the publisher before the flood.
	waitFor(t, "two subscribers", func() bool {
		_ = pub.Send(zmq4.NewMsgString("hello"))
		return len(pub.(zmq4.Topics).Topics()) > 0 && tr.Peers() == 2
	})

	got := make(chan int, 1)
	const n = 40000 // 40 MB: more than peerBufferLimit plus socket buffers
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
	payload := bytes.Repeat([]byte("x"), 1000)
	for i := range n - 1 {
		tr.waitForRoom(ctx) // as the kernel's iopub writer does
		_ = pub.SendMulti(zmq4.NewMsgFrom([]byte(fmt.Sprintf("msg-%d", i)), payload))
	}
	_ = pub.SendMulti(zmq4.NewMsgFrom([]byte("msg-last"), payload))
	select {
	case c := <-got:
		if c != n {
			t.Errorf("fast subscriber got %d of %d messages", c, n)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the reading subscriber stalled behind the one that stopped reading")
	}
	waitFor(t, "the stalled subscriber to be dropped", func() bool { return tr.Peers() == 1 })
}
