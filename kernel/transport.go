package kernel

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// Why tick registers its own zmq4 transport for iopub:
//
// zmq4 v0.17.0's PUB socket queues every message without limit and sends
// from one goroutine that writes to each subscriber's connection in turn,
// blocking on the write. A subscriber that stops reading fills its TCP
// buffers, that write blocks, and every other subscriber stalls while the
// queue (and the kernel's memory) grows. libzmq instead drops messages for
// the slow peer only.
//
// The iopub socket therefore listens through the transports "tick-tcp" and
// "tick-ipc", whose connections never block the writer: each peer gets a
// buffer of at most peerBufferLimit bytes drained by its own goroutine. A
// peer whose buffer overflows is disconnected (a ZeroMQ SUB reconnects and
// resubscribes by itself; it misses what was published meanwhile, as with
// libzmq's drop-at-high-water-mark). Other subscribers never wait for it and
// memory stays bounded by peers × peerBufferLimit.

const (
	pubTCP = "tick-tcp"
	pubIPC = "tick-ipc"
	// peerBufferLimit bounds what is queued for one iopub subscriber.
	peerBufferLimit = 16 << 20
)

// registerOnce guards zmq4's global transport registry, which rejects a
// second registration of a name.
var registerOnce sync.Once

func registerTransports() {
	registerOnce.Do(func() {
		_ = zmq4.RegisterTransport(pubTCP, asyncTransport{base: transport.New("tcp"), network: "tcp", limit: peerBufferLimit})
		_ = zmq4.RegisterTransport(pubIPC, asyncTransport{base: transport.New("unix"), network: "unix", limit: peerBufferLimit})
	})
}

// asyncTransport is a zmq4 transport whose accepted connections buffer
// writes (up to limit bytes) and drain them on their own goroutine.
type asyncTransport struct {
	base    transport.Transport
	network string
	limit   int
}

func (t asyncTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	return t.base.Dial(ctx, d, addr)
}

func (t asyncTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := net.Listen(t.network, addr)
	if err != nil {
		return nil, err
	}
	return asyncListener{Listener: l, limit: t.limit}, nil
}

func (t asyncTransport) Addr(ep string) (string, error) { return t.base.Addr(ep) }

type asyncListener struct {
	net.Listener
	limit int
}

func (l asyncListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newAsyncConn(c, l.limit), nil
}

// errSlowSubscriber is the error a slow peer's writes fail with once it is
// disconnected. It is not a timeout, so zmq4 drops the connection.
var errSlowSubscriber = errors.New("kernel: iopub subscriber disconnected: it read too slowly and its buffer overflowed")

// asyncConn buffers writes for one peer; a goroutine drains the buffer.
type asyncConn struct {
	net.Conn
	limit int

	mu      sync.Mutex
	cond    *sync.Cond
	pending []byte
	dead    error
	closing bool
	done    chan struct{} // closed when drain returns
}

func newAsyncConn(c net.Conn, limit int) *asyncConn {
	a := &asyncConn{Conn: c, limit: limit, done: make(chan struct{})}
	a.cond = sync.NewCond(&a.mu)
	go a.drain()
	return a
}

// Write queues p for the peer; it fails (and disconnects the peer) when
// the peer is more than limit bytes behind.
func (a *asyncConn) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dead != nil {
		return 0, a.dead
	}
	if len(a.pending)+len(p) > a.limit {
		a.kill(&net.OpError{Op: "write", Net: "tick", Err: errSlowSubscriber})
		return 0, a.dead
	}
	a.pending = append(a.pending, p...)
	a.cond.Signal()
	return len(p), nil
}

// kill marks the connection dead and closes it; a.mu is held.
func (a *asyncConn) kill(err error) {
	if a.dead == nil {
		a.dead = err
		a.pending = nil
		_ = a.Conn.Close()
		a.cond.Broadcast()
	}
}

func (a *asyncConn) drain() {
	defer close(a.done)
	var buf []byte
	for {
		a.mu.Lock()
		for len(a.pending) == 0 && a.dead == nil && !a.closing {
			a.cond.Wait()
		}
		if a.dead != nil || (a.closing && len(a.pending) == 0) {
			a.kill(net.ErrClosed)
			a.mu.Unlock()
			return
		}
		buf, a.pending = a.pending, buf[:0]
		a.mu.Unlock()
		if _, err := a.Conn.Write(buf); err != nil {
			a.mu.Lock()
			a.kill(err)
			a.mu.Unlock()
			return
		}
	}
}

// closeGrace bounds how long Close waits for queued bytes to reach a peer.
const closeGrace = 500 * time.Millisecond

// Close sends what is queued (waiting at most closeGrace), then closes the
// connection.
func (a *asyncConn) Close() error {
	a.mu.Lock()
	a.closing = true
	a.cond.Broadcast()
	a.mu.Unlock()
	select {
	case <-a.done:
	case <-time.After(closeGrace):
		a.mu.Lock()
		a.kill(net.ErrClosed)
		a.mu.Unlock()
	}
	return nil
}
