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

// twoSubscribers starts a publisher on tick's iopub transport (registered
// under scheme) and two subscribers to everything, and returns once both
// subscriptions have reached the publisher. The sockets close with ctx's
// test.
func twoSubscribers(ctx context.Context, t *testing.T, scheme string) (tr *asyncTransport, pub, fast, slow zmq4.Socket) {
	t.Helper()
	tr = newAsyncTransport("tcp")
	if err := zmq4.RegisterTransport(scheme, tr); err != nil {
		t.Fatal(err)
	}
	pub = zmq4.NewPub(ctx)
	t.Cleanup(func() { pub.Close() })
	if err := pub.Listen(scheme + "://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ep := fmt.Sprintf("tcp://127.0.0.1:%d", pub.Addr().(*net.TCPAddr).Port)
	fast, slow = zmq4.NewSub(ctx), zmq4.NewSub(ctx)
	for _, s := range []zmq4.Socket{fast, slow} {
		t.Cleanup(func() { s.Close() })
		if err := s.Dial(ep); err != nil {
			t.Fatal(err)
		}
		if err := s.SetOption(zmq4.OptionSubscribe, ""); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "two subscribers", func() bool {
		_ = pub.Send(zmq4.NewMsgString("hello"))
		return len(pub.(zmq4.Topics).Topics()) > 0 && tr.Peers() == 2
	})
	return tr, pub, fast, slow
}

// TestSlowSubscriberDoesNotStallOthers publishes far more than a stalled
// subscriber's buffers hold: the reading subscriber must still get every
// message (the publisher waits for it, never for the stalled one), and the
// stalled one is disconnected after stallTimeout.
func TestSlowSubscriberDoesNotStallOthers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, pub, fast, _ := twoSubscribers(ctx, t, "tick-tcp-slowtest") // the second never calls Recv

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
