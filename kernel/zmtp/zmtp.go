// Package zmtp guards the kernel's ZeroMQ sockets at the byte level, in
// front of zmq4.
//
// zmq4 v0.17.0 trusts its peers: its connection reader allocates whatever
// body size a frame header announces (one header announcing 1 TiB kills
// the process before tick sees a byte), its accept loop performs each
// ZMTP handshake in turn (an idle TCP connection that never sends a
// greeting blocks every later client), it spins when accept fails (file
// descriptors exhausted), a ROUTER sends a reply to every peer that claims
// the same identity, and its writes have no deadline (a peer that stops
// reading wedges the socket for everyone).
//
// tick does not fork zmq4; it registers transports ("tick-tcp",
// "tick-ipc") whose listeners and connections fix these at the byte level:
//
//   - The handshake happens off zmq4's accept loop, one goroutine per new
//     connection, under a deadline (Limits.Handshake): the listener sends
//     tick's greeting, reads the peer's greeting and its first command
//     (READY with the NULL mechanism), and only then hands the connection
//     to zmq4, which finds the peer's bytes already there. The greeting
//     zmq4 then writes is the one already sent, so it is swallowed.
//   - Every frame header is checked as it comes off the wire, before zmq4
//     reads its last byte and allocates: a frame or a message larger than
//     Limits.MaxMessage, or a command larger than maxCommand, closes the
//     connection with a log line (Scanner).
//   - A peer announcing an identity another live connection of the same
//     listener already has gets an identity of its own (a suffix added in
//     its READY before zmq4 reads it): it never receives what is addressed
//     to the first peer, as with libzmq's ROUTER (ZMQ_ROUTER_HANDOVER off),
//     and its own requests are still answered (jupyter_client's clients of
//     one KernelManager share an identity).
//   - Accept errors back off (5 ms doubling to 1 s) instead of spinning.
//   - Every write has a deadline (Limits.Write); a peer that does not take
//     its bytes in time is disconnected, so a reply to a client that stopped
//     reading cannot wedge the shell executor.
//
// The limits of a socket travel in the context given to zmq4's socket
// constructor (WithLimits), because zmq4's transport registry is global
// and its Listen gets only that context.
package zmtp

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// Default limits.
const (
	DefaultMaxMessage = 1 << 30 // 1 GiB: far above any Jupyter message, far below a kill
	DefaultHandshake  = 10 * time.Second
	DefaultWrite      = 10 * time.Second
)

// Limits bound what one peer can make a socket do.
type Limits struct {
	// Name names the socket in log lines ("shell", "iopub").
	Name string
	// MaxMessage bounds one frame and one multipart message (the sum of
	// its frames), in bytes.
	MaxMessage int64
	// Handshake bounds the time from accept to the peer's first command.
	Handshake time.Duration
	// Write bounds each write to a peer.
	Write time.Duration
	// Log receives one line per refused peer or connection; nil discards.
	Log io.Writer
}

func (l Limits) withDefaults() Limits {
	if l.MaxMessage <= 0 {
		l.MaxMessage = DefaultMaxMessage
	}
	if l.Handshake <= 0 {
		l.Handshake = DefaultHandshake
	}
	if l.Write <= 0 {
		l.Write = DefaultWrite
	}
	if l.Log == nil {
		l.Log = io.Discard
	}
	if l.Name == "" {
		l.Name = "zmtp"
	}
	return l
}

func (l Limits) logf(format string, args ...any) {
	fmt.Fprintf(l.Log, "tick: %s: "+format+"\n", append([]any{l.Name}, args...)...)
}

type limitsKey struct{}

// WithLimits returns a context carrying the limits for a socket created
// with it (zmq4.NewRouter(zmtp.WithLimits(ctx, l)), ...).
func WithLimits(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

func limitsFrom(ctx context.Context) Limits {
	l, _ := ctx.Value(limitsKey{}).(Limits)
	return l.withDefaults()
}

// Transport names registered with zmq4 by Register.
const (
	TCP = "tick-tcp"
	IPC = "tick-ipc"
)

var registered struct {
	once sync.Once
	err  error
}

// Register registers the guarded transports TCP and IPC with zmq4 (once
// per process: zmq4's registry refuses a second registration of a name).
func Register() error {
	registered.once.Do(func() {
		if err := zmq4.RegisterTransport(TCP, Transport{Network: "tcp"}); err != nil {
			registered.err = err
			return
		}
		registered.err = zmq4.RegisterTransport(IPC, Transport{Network: "unix"})
	})
	return registered.err
}

// Transport is a zmq4 transport whose listeners guard their connections.
// Wrap, when set, wraps each guarded connection before zmq4 sees it (the
// iopub socket's non-blocking writer uses it).
type Transport struct {
	Network string
	Wrap    func(*Conn) net.Conn
}

// Dial dials without guarding: tick's kernel only listens.
func (t Transport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	return d.DialContext(ctx, t.Network, addr)
}

// Listen listens on addr with the limits carried by ctx.
func (t Transport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := net.Listen(t.Network, addr)
	if err != nil {
		return nil, err
	}
	return NewListener(ctx, l, limitsFrom(ctx), t.Wrap), nil
}

// Addr normalizes an endpoint address as zmq4's own transports do.
func (t Transport) Addr(ep string) (string, error) {
	if t.Network == "unix" {
		return ep, nil
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return "", fmt.Errorf("zmtp: endpoint %q: %w", ep, err)
	}
	if port == "*" || port == "" {
		port = "0"
	}
	if host == "*" {
		host = ""
	}
	return net.JoinHostPort(host, port), nil
}
