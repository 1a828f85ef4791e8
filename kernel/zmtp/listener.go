package zmtp

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// Accept back-off bounds.
const (
	backoffMin = 5 * time.Millisecond
	backoffMax = time.Second
)

// Listener accepts connections on its own goroutine, performs each peer's
// greeting and first command on a goroutine of its own under a deadline,
// and hands zmq4 only connections whose handshake bytes have arrived.
type Listener struct {
	inner net.Listener
	lim   Limits
	wrap  func(*Conn) net.Conn

	ready     chan net.Conn
	done      chan struct{}
	closeOnce sync.Once

	mu      sync.Mutex
	ids     map[string]*Conn     // identities of live connections
	refused map[string]time.Time // when a refusal of an identity was last logged
}

// refusalLogEvery bounds the log lines about one refused identity (a
// libzmq peer reconnects every 100 ms).
const refusalLogEvery = time.Minute

// NewListener guards l with lim; wrap (optional) wraps each connection
// before Accept returns it. The listener closes when ctx is done.
func NewListener(ctx context.Context, l net.Listener, lim Limits, wrap func(*Conn) net.Conn) *Listener {
	ln := &Listener{inner: l, lim: lim.withDefaults(), wrap: wrap,
		ready: make(chan net.Conn), done: make(chan struct{}), ids: map[string]*Conn{}, refused: map[string]time.Time{}}
	go ln.acceptLoop()
	go func() {
		select {
		case <-ctx.Done():
			_ = ln.Close()
		case <-ln.done:
		}
	}()
	return ln
}

// Accept returns the next connection whose handshake bytes have arrived.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting; connections already handed out stay open.
func (l *Listener) Close() error {
	var err error
	l.closeOnce.Do(func() {
		close(l.done)
		err = l.inner.Close()
	})
	return err
}

// Addr returns the listening address.
func (l *Listener) Addr() net.Addr { return l.inner.Addr() }

func (l *Listener) acceptLoop() {
	var backoff time.Duration
	for {
		c, err := l.inner.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if backoff == 0 {
				backoff = backoffMin
				l.lim.logf("accept failed: %v; retrying with back-off (file descriptors exhausted? raise `ulimit -n`)", err)
			} else {
				backoff = min(2*backoff, backoffMax)
			}
			select {
			case <-time.After(backoff):
			case <-l.done:
				return
			}
			continue
		}
		backoff = 0
		go l.handshake(c)
	}
}

// handshake sends tick's greeting, reads the peer's greeting and first
// command under the handshake deadline, and queues the connection for
// Accept.
func (l *Listener) handshake(raw net.Conn) {
	_ = raw.SetDeadline(time.Now().Add(l.lim.Handshake))
	pre, cmd, err := readHandshake(raw)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			l.lim.logf("peer %s sent no complete ZMTP handshake within %v; closed it", raw.RemoteAddr(), l.lim.Handshake)
		} else if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			l.lim.logf("peer %s: %v; closed it", raw.RemoteAddr(), err)
		}
		_ = raw.Close()
		return
	}
	_ = raw.SetDeadline(time.Time{})
	c := &Conn{Conn: raw, lim: l.lim, owner: l, replay: pre, swallow: greetingLen}
	c.scan.MaxMessage = l.lim.MaxMessage
	if id := commandIdentity(cmd); id != "" {
		if !l.claim(id, c) {
			// As libzmq's ROUTER, a second peer never receives what is
			// addressed to the first: it gets an identity of its own.
			fresh := id + "~" + rand.Text()[:12]
			body, ok := withIdentity(cmd, fresh)
			if !ok || !l.claim(fresh, c) {
				l.lim.logf("refused peer %s: identity %q is already connected; give each client its own identity", raw.RemoteAddr(), id)
				_ = raw.Close()
				return
			}
			if l.shouldLogRefusal(id) {
				l.lim.logf("peer %s claimed identity %q, which another connected peer has; it was given its own (%q), so neither receives the other's replies", raw.RemoteAddr(), id, fresh)
			}
			c.replay = append(pre[:greetingLen:greetingLen], commandFrame(body)...)
			id = fresh
		}
		c.identity = id
	}
	var out net.Conn = c
	if l.wrap != nil {
		out = l.wrap(c)
	}
	select {
	case l.ready <- out:
	case <-l.done:
		_ = c.Close()
	}
}

// readHandshake writes the greeting and reads the peer's greeting and
// first command frame; it returns the bytes read (to replay to zmq4) and
// the command's body.
func readHandshake(c net.Conn) (pre, cmd []byte, err error) {
	if _, err := c.Write(greeting()); err != nil {
		return nil, nil, err
	}
	pre = make([]byte, greetingLen, greetingLen+64)
	if _, err := io.ReadFull(c, pre); err != nil {
		return nil, nil, err
	}
	if err := checkGreeting(pre); err != nil {
		return nil, nil, err
	}
	var hdr [9]byte
	if _, err := io.ReadFull(c, hdr[:2]); err != nil {
		return nil, nil, err
	}
	if hdr[0]&flagCommand == 0 {
		return nil, nil, errors.New("zmtp: peer sent a message before its handshake command")
	}
	size, hl := uint64(hdr[1]), 2
	if hdr[0]&flagLong != 0 {
		if _, err := io.ReadFull(c, hdr[2:9]); err != nil {
			return nil, nil, err
		}
		size, hl = binary.BigEndian.Uint64(hdr[1:9]), 9
	}
	if size > maxCommand {
		return nil, nil, &SizeError{What: "command", Size: size, Limit: maxCommand}
	}
	pre = append(pre, hdr[:hl]...)
	start := len(pre)
	pre = append(pre, make([]byte, size)...)
	if _, err := io.ReadFull(c, pre[start:]); err != nil {
		return nil, nil, err
	}
	return pre, pre[start:], nil
}

func (l *Listener) claim(id string, c *Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, taken := l.ids[id]; taken {
		return false
	}
	l.ids[id] = c
	return true
}

func (l *Listener) release(id string, c *Conn) {
	l.mu.Lock()
	if l.ids[id] == c {
		delete(l.ids, id)
	}
	l.mu.Unlock()
}

func (l *Listener) shouldLogRefusal(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.refused[id]) < refusalLogEvery {
		return false
	}
	if len(l.refused) > 1024 {
		clear(l.refused)
	}
	l.refused[id] = time.Now()
	return true
}
