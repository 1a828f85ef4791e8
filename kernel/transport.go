package kernel

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
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
// drop-at-high-water-mark), so it never freezes the others. A peer that
// reads, but has kept the publisher waiting for lagBudget in all while
// another peer was ready, is not waited for until it catches up (a steady
// slow reader does not set everyone's pace); more than slowLimit behind,
// it is disconnected. A peer further than hardLimit behind is
// disconnected at once. Memory stays bounded by peers × hardLimit.

const (
	pubTCP = "tick-pub-tcp"
	pubIPC = "tick-pub-ipc"

	highWater = 1 << 20
	hardLimit = 4 * maxIOPubMessage
	// slowLimit bounds the backlog of a peer the publisher no longer
	// waits for (one message of the largest size and a bit).
	slowLimit    = maxIOPubMessage + highWater
	stallTimeout = 5 * time.Second
	// lagBudget is how long, in all, the publisher waits for a peer more
	// than highWater behind while another peer is ready before it stops
	// waiting for it (waitForRoom). At 3 s (when it was a disconnection)
	// a reading subscriber whose goroutine a loaded machine starved was
	// dropped as lagging (1 of 6 runs of TestSlowSubscriberDoesNotStallOthers
	// at load 6, and once in .ci/run); at 10 s none of 14.
	lagBudget = 10 * time.Second
	// drainPiece is the most a peer's goroutine writes at once.
	drainPiece = 256 << 10
	// deliveryWait bounds the wait for zmq4 to hand a message to the peers.
	deliveryWait = time.Second
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

	mu      sync.Mutex
	cond    *sync.Cond // signalled when a peer drains, is written to or goes away
	peers   map[*asyncConn]bool
	written atomic.Int64 // bytes zmq4 has written to all peers
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
// early when ctx is done. One slow reader must not set everyone's pace: a
// peer the publisher has waited for, in all, lagBudget while another peer
// was ready is marked slow and no longer waited for (its backlog grows, to
// at most hardLimit, when it is disconnected) until it has caught up.
// Counting the wait in all, not since the peer last went behind, matters:
// with 1 MiB messages a steady reader of 2 MB/s drops under highWater
// between every two of them, and it set the pace of a 300 MB print (300 s,
// where the other subscriber took 11 s).
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
		var full []*asyncConn
		ready := 0
		for c := range t.peers {
			st := c.state()
			switch {
			case st.behind == 0 && c.slow.Load():
				c.slow.Store(false) // caught up: waited for again
				c.lagged = 0
				ready++
			case st.behind <= highWater:
				ready++
			case time.Since(st.progress) > stallTimeout:
				go c.fail(errStalledSubscriber) // takes t.mu via forget
			case !c.slow.Load():
				full = append(full, c)
			}
		}
		if len(full) == 0 {
			return
		}
		if wake == nil {
			wake = time.AfterFunc(lagBudget/4, func() { t.broadcast() })
		} else {
			wake.Reset(lagBudget / 4)
		}
		start := time.Now()
		t.cond.Wait()
		if ready == 0 {
			continue // everyone is behind: the fastest sets the pace
		}
		waited := time.Since(start)
		for _, c := range full {
			if c.lagged += waited; c.lagged > lagBudget {
				c.slow.Store(true)
			}
		}
	}
}

// awaitDelivery waits until zmq4's PUB writer (which queues without limit
// and writes from its own goroutine) has handed size more bytes than mark
// to the peers' connections, so the publisher's bounded queue is the only
// queue; it gives up after deliveryWait or when there are no peers.
func (t *asyncTransport) awaitDelivery(ctx context.Context, mark int64, size int) {
	timer := time.AfterFunc(deliveryWait, t.broadcast)
	defer timer.Stop()
	deadline := time.Now().Add(deliveryWait)
	t.mu.Lock()
	defer t.mu.Unlock()
	for ctx.Err() == nil && len(t.peers) > 0 && t.written.Load() < mark+int64(size) && time.Now().Before(deadline) {
		t.cond.Wait()
	}
}

// noteWritten counts bytes zmq4 wrote to a peer and wakes awaitDelivery.
func (t *asyncTransport) noteWritten(n int) {
	t.written.Add(int64(n))
	t.broadcast()
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
	inflight int       // bytes drain is writing now
	progress time.Time // when the peer last accepted bytes (or connected)
	dead     error
	closing  bool
	done     chan struct{} // closed when drain returns

	// lagged is how long the publisher waited for this peer while another
	// was ready (guarded by t.mu: waitForRoom); slow is set when that
	// passed lagBudget, and the publisher no longer waits for it: its
	// backlog may then reach slowLimit, not hardLimit.
	lagged time.Duration
	slow   atomic.Bool
}

func newAsyncConn(c net.Conn, t *asyncTransport) *asyncConn {
	a := &asyncConn{Conn: c, t: t, progress: time.Now(), done: make(chan struct{})}
	a.cond = sync.NewCond(&a.mu)
	go a.drain()
	return a
}

// connState is what waitForRoom looks at.
type connState struct {
	behind   int // bytes queued or being written
	progress time.Time
}

func (a *asyncConn) state() connState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return connState{behind: len(a.pending) + a.inflight, progress: a.progress}
}

// Write queues p for the peer; it fails (and disconnects the peer) when
// the peer is more than hardLimit bytes behind.
func (a *asyncConn) Write(p []byte) (int, error) {
	n, err := a.queue(p)
	if n > 0 {
		a.t.noteWritten(n)
	}
	return n, err
}

func (a *asyncConn) queue(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dead != nil {
		return 0, a.dead
	}
	limit := hardLimit
	if a.slow.Load() {
		limit = slowLimit
	}
	if len(a.pending)+a.inflight+len(p) > limit {
		a.kill(&net.OpError{Op: "write", Net: "tick", Err: errSlowSubscriber})
		return 0, a.dead
	}
	if len(a.pending) == 0 && a.inflight == 0 {
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
		a.inflight = len(buf)
		a.mu.Unlock()
		// In pieces, so that progress says the peer is reading: a slow
		// reader with a big backlog is not taken for a stalled one.
		var err error
		for off := 0; off < len(buf) && err == nil; {
			n := min(len(buf)-off, drainPiece)
			_, err = a.Conn.Write(buf[off : off+n])
			off += n
			a.mu.Lock()
			a.inflight = len(buf) - off
			a.progress = time.Now()
			a.mu.Unlock()
		}
		a.mu.Lock()
		a.inflight = 0
		if err != nil {
			a.kill(err)
		}
		a.mu.Unlock()
		if err != nil {
			return
		}
		if cap(buf) > 4*highWater {
			buf = nil // a burst's buffer is not kept for the peer's lifetime
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
