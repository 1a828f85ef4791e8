package zmtp

import (
	"errors"
	"net"
	"sync"
	"time"
)

// ErrWriteTimeout is the error of a write to a peer that did not take its
// bytes within Limits.Write; the connection is closed.
var ErrWriteTimeout = errors.New("zmtp: peer did not read in time; disconnected")

// Conn is one guarded connection: it replays the handshake bytes the
// listener read, swallows the greeting zmq4 writes (the listener sent
// it), checks every frame header the peer sends and bounds every write.
//
// zmq4 reads a connection from one goroutine and serializes its writes.
type Conn struct {
	net.Conn
	lim      Limits
	owner    *Listener
	identity string

	replay []byte
	scan   Scanner

	wmu     sync.Mutex
	swallow int

	closeOnce sync.Once
}

// Read returns the peer's bytes after checking them with the frame
// scanner; a frame over the limits closes the connection.
func (c *Conn) Read(p []byte) (int, error) {
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		return n, nil
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		if serr := c.scan.Feed(p[:n]); serr != nil {
			c.lim.logf("closed the connection of peer %s: %v", c.RemoteAddr(), serr)
			_ = c.Close()
			return 0, &net.OpError{Op: "read", Net: "zmtp", Addr: c.RemoteAddr(), Err: serr}
		}
	}
	if err != nil {
		c.releaseIdentity()
	}
	return n, err
}

// Write sends p within the write deadline; a peer that does not take the
// bytes in time is disconnected (the error is not a timeout, so zmq4
// drops the connection instead of retrying on a half-written frame).
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	total := len(p)
	if c.swallow > 0 {
		k := min(c.swallow, len(p))
		c.swallow -= k
		p = p[k:]
		if len(p) == 0 {
			return total, nil
		}
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(c.lim.Write))
	n, err := c.Conn.Write(p)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			c.lim.logf("peer %s did not read for %v; disconnected it", c.RemoteAddr(), c.lim.Write)
			_ = c.Close()
			return total - len(p) + n, &net.OpError{Op: "write", Net: "zmtp", Addr: c.RemoteAddr(), Err: ErrWriteTimeout}
		}
		return total - len(p) + n, err
	}
	return total, nil
}

// Close closes the connection and frees its identity.
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.releaseIdentity()
		err = c.Conn.Close()
	})
	return err
}

func (c *Conn) releaseIdentity() {
	if c.identity != "" && c.owner != nil {
		c.owner.release(c.identity, c)
	}
}
