package kernel

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"

	"github.com/tick-kernel/tick/kernel/zmtp"
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
// The iopub socket therefore listens through the transports "tick-pub-tcp"
// and "tick-pub-ipc" (package zmtp's guarded listener, each connection
// wrapped in an asyncConn), whose connections never block zmq4's writer: each peer's
// bytes go to a buffer drained by the peer's own goroutine. Before handing
// a message to the socket, the iopub writer calls waitForRoom, which waits
// while a peer that is still reading has more than highWater bytes queued:
// readers that are merely slow slow the publisher down (whose bounded
// queue then coalesces or drops stream output, see iopub.go). A peer that
// has bytes queued and accepted none of them for stallTimeout has stopped
// reading: it is disconnected (a ZeroMQ SUB reconnects and resubscribes by
// itself, missing what was published meanwhile, as with libzmq's
// drop-at-high-water-mark), so it never freezes the others. A peer further
// than hardLimit behind is disconnected at once. Memory stays bounded by
// peers × hardLimit.

const (
	pubTCP = "tick-pub-tcp"
	pubIPC = "tick-pub-ipc"

	highWater    = 1 << 20
	hardLimit    = 32 << 20
	stallTimeout = 5 * time.Second
)

// iopubTransports holds the transports registered with zmq4's global
// registry (which rejects a second registration of a name), so the
// registration happens once per process.
var iopubTransports struct {
	once     sync.Once
	tcp, ipc *asyncTransport
}

func registerTransports() {
	iopubTransports.once.Do(func() {
		iopubTransports.tcp = newAsyncTransport("tcp")
		iopubTransports.ipc = newAsyncTransport("unix")
		_ = zmq4.RegisterTransport(pubTCP, iopubTransports.tcp)
		_ = zmq4.RegisterTransport(pubIPC, iopubTransports.ipc)
	})
}

// asyncTransport is a zmq4 transport whose accepted connections buffer
// writes and drain them on their own goroutine.
type asyncTransport struct {
	base    zmtp.Transport
	network string

	mu    sync.Mutex
	cond  *sync.Cond // signalled when a peer drains or goes away
	peers map[*asyncConn]bool
}

func newAsyncTransport(network string) *asyncTransport {
	t := &asyncTransport{network: network, peers: map[*asyncConn]bool{}}
	t.cond = sync.NewCond(&t.mu)
	t.base = zmtp.Transport{Network: network, Wrap: t.wrap}
	return t
}

func (t *asyncTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	return t.base.Dial(ctx, d, addr)
}

func (t *asyncTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	return t.base.Listen(ctx, addr)
}

// wrap makes a guarded connection an asyncConn and counts it as a peer.
func (t *asyncTransport) wrap(c *zmtp.Conn) net.Conn {
	a := newAsyncConn(c, t)
	t.mu.Lock()
	t.peers[a] = true
	t.mu.Unlock()
	return a
}

func (t *asyncTransport) Addr(ep string) (string, error) { return t.base.Addr(ep) }

// Peers returns the number of live connections.
func (t *asyncTransport) Peers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.peers)
}

// waitForRoom blocks while a peer that is still reading has more than
// highWater bytes queued, disconnecting peers that stalled; it returns
// early when ctx is done.
func (t *asyncTransport) waitForRoom(ctx context.Context) {
	var wake *time.Timer
	defer func() {
		if wake != nil {
			wake.Stop()
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	for ctx.Err() == nil {
		full := false
		for c := range t.peers {
			pending, last := c.state()
			if pending <= highWater {
				continue
			}
			if time.Since(last) > stallTimeout {
				go c.fail(errStalledSubscriber) // takes t.mu via forget
				continue
			}
			full = true
		}
		if !full {
			return
		}
		if wake == nil {
			wake = time.AfterFunc(stallTimeout/4, func() { t.broadcast() })
		} else {
			wake.Reset(stallTimeout / 4)
		}
		t.cond.Wait()
	}
}

func (t *asyncTransport) broadcast() {
	t.mu.Lock()
	t.cond.Broadcast()
	t.mu.Unlock()
}

func (t *asyncTransport) forget(c *asyncConn) {
	t.mu.Lock()
	delete(t.peers, c)
	t.cond.Broadcast()
	t.mu.Unlock()
}

// The errors a disconnected peer's writes fail with. They are not
// timeouts, so zmq4 drops the connection.
var (
	errStalledSubscriber = errors.New("kernel: iopub subscriber disconnected: it stopped reading")
	errSlowSubscriber    = errors.New("kernel: iopub subscriber disconnected: it fell too far behind")
)

// asyncConn buffers writes for one peer; a goroutine drains the buffer.
type asyncConn struct {
	net.Conn
	t *asyncTransport

	mu       sync.Mutex
	cond     *sync.Cond
	pending  []byte
	progress time.Time // when the peer last accepted bytes (or connected)
	dead     error
	closing  bool
	done     chan struct{} // closed when drain returns
}

func newAsyncConn(c net.Conn, t *asyncTransport) *asyncConn {
	a := &asyncConn{Conn: c, t: t, progress: time.Now(), done: make(chan struct{})}
	a.cond = sync.NewCond(&a.mu)
	go a.drain()
	return a
}

func (a *asyncConn) state() (pending int, progress time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.pending), a.progress
}

// Write queues p for the peer; it fails (and disconnects the peer) when
// the peer is more than hardLimit bytes behind.
func (a *asyncConn) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dead != nil {
		return 0, a.dead
	}
	if len(a.pending)+len(p) > hardLimit {
		a.kill(&net.OpError{Op: "write", Net: "tick", Err: errSlowSubscriber})
		return 0, a.dead
	}
	if len(a.pending) == 0 {
		a.progress = time.Now() // the stall clock starts with queued bytes
	}
	a.pending = append(a.pending, p...)
	a.cond.Signal()
	return len(p), nil
}

func (a *asyncConn) fail(err error) {
	a.mu.Lock()
	a.kill(&net.OpError{Op: "write", Net: "tick", Err: err})
	a.mu.Unlock()
}

// kill marks the connection dead and closes it; a.mu is held.
func (a *asyncConn) kill(err error) {
	if a.dead != nil {
		return
	}
	a.dead = err
	a.pending = nil
	_ = a.Conn.Close()
	a.cond.Broadcast()
	go a.t.forget(a) // not under a.mu: forget takes t.mu, which waitForRoom holds while calling state
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
		_, err := a.Conn.Write(buf)
		a.mu.Lock()
		a.progress = time.Now()
		if err != nil {
			a.kill(err)
		}
		a.mu.Unlock()
		if err != nil {
			return
		}
		a.t.broadcast()
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
		a.fail(net.ErrClosed)
	}
	return nil
}
