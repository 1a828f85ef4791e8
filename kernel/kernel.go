// Package kernel is tick's Jupyter kernel: it binds the five ZeroMQ sockets
// of a connection file, decodes requests with package wire, dispatches them
// through a table of handlers (Mux), evaluates cells with a session.Runner
// and publishes their output on iopub with bounded back-pressure.
//
// Concurrency: one receive goroutine per socket; shell requests run in order
// on one executor goroutine; control requests (interrupt, shutdown) are
// served on the control goroutine so they answer while a cell runs; the
// heartbeat echoes on its own goroutine; one writer goroutine owns iopub.
package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/wire"
	"github.com/tick-kernel/tick/kernel/zmtp"
)

// Config configures a Kernel.
type Config struct {
	Conn   ConnectionInfo
	Runner session.Runner
	Info   Info
	// Log receives diagnostics (dropped messages, handler panics). The
	// process's stderr in `tick kernel`; never stdout.
	Log io.Writer
	// Limits bound what one peer can make a socket do (package zmtp);
	// zero fields get zmtp's defaults, MaxMessage TICK_MAX_MESSAGE's.
	Limits zmtp.Limits
}

// shellQueue bounds shell requests waiting for the executor. Clients send
// one request at a time per user action, so a full queue means a client is
// flooding; the receive loop then waits.
const shellQueue = 256

// Kernel is one running Jupyter kernel.
type Kernel struct {
	cfg     Config
	key     []byte
	session string
	log     io.Writer
	service *Service
	shell   *Mux
	control *Mux

	socks struct {
		shell, control, stdin, iopub, hb zmq4.Socket
	}
	shellMu, controlMu, stdinMu sync.Mutex
	pub                         *publisher

	inputs    chan *wire.Message // input_reply messages from stdin
	interrupt chan struct{}      // wakes a pending Input on interrupt

	ctx      context.Context
	cancel   context.CancelFunc
	stopOnce sync.Once
	stopped  chan struct{}
	ports    map[string]int
}

// New returns a kernel for cfg; Start binds its sockets.
func New(cfg Config) *Kernel {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	k := &Kernel{cfg: cfg, key: []byte(cfg.Conn.Key), session: uuid.NewString(), log: cfg.Log,
		inputs: make(chan *wire.Message, 1), interrupt: make(chan struct{}, 1),
		stopped: make(chan struct{}), ports: map[string]int{}}
	k.ctx, k.cancel = context.WithCancel(context.Background())
	k.service = NewService(cfg.Runner, ServiceOptions{
		Info: cfg.Info, Context: k.ctx, Interrupt: k.Interrupt,
		Shutdown: func(bool) { go k.Stop() },
	})
	k.shell, k.control = NewMux(cfg.Log), NewMux(cfg.Log)
	k.service.Register(k.shell, k.control)
	return k
}

// Service returns the kernel's handlers (history, counters).
func (k *Kernel) Service() *Service { return k.service }

// Port returns the port a socket ("shell", "control", "stdin", "iopub",
// "hb") is bound to; useful when the connection file asked for port 0.
func (k *Kernel) Port(name string) int { return k.ports[name] }

// Start binds the sockets and starts serving. It returns once the kernel
// is ready; Wait blocks until it stops.
func (k *Kernel) Start() error {
	registerTransports()
	if err := zmtp.Register(); err != nil {
		return fmt.Errorf("kernel: registering the guarded transports: %w", err)
	}
	ci := k.cfg.Conn
	lim, err := k.limits()
	if err != nil {
		return err
	}
	k.warnExposure()
	sockCtx := func(name string) context.Context {
		l := lim
		l.Name = name
		return zmtp.WithLimits(k.ctx, l)
	}
	k.socks.shell = zmq4.NewRouter(sockCtx("shell"), zmq4.WithID(zmq4.SocketIdentity("tick-shell")))
	k.socks.control = zmq4.NewRouter(sockCtx("control"), zmq4.WithID(zmq4.SocketIdentity("tick-control")))
	k.socks.stdin = zmq4.NewRouter(sockCtx("stdin"), zmq4.WithID(zmq4.SocketIdentity("tick-stdin")))
	k.socks.iopub = zmq4.NewPub(sockCtx("iopub"))
	k.socks.hb = zmq4.NewRep(sockCtx("hb"))
	binds := []struct {
		name string
		sock zmq4.Socket
		port int
		tcp  string
		ipc  string
	}{
		{"shell", k.socks.shell, ci.ShellPort, zmtp.TCP, zmtp.IPC},
		{"control", k.socks.control, ci.ControlPort, zmtp.TCP, zmtp.IPC},
		{"stdin", k.socks.stdin, ci.StdinPort, zmtp.TCP, zmtp.IPC},
		{"iopub", k.socks.iopub, ci.IOPubPort, pubTCP, pubIPC},
		{"hb", k.socks.hb, ci.HBPort, zmtp.TCP, zmtp.IPC},
	}
	for _, b := range binds {
		ep := ci.endpoint(b.port, b.tcp, b.ipc)
		if err := b.sock.Listen(ep); err != nil {
			k.closeSockets()
			return fmt.Errorf("kernel: binding %s socket to %s: %w (is another kernel using this connection file?)", b.name, ep, err)
		}
		k.ports[b.name] = b.port
		if tcp, ok := b.sock.Addr().(*net.TCPAddr); ok {
			k.ports[b.name] = tcp.Port
		}
	}
	iopub, tr := k.socks.iopub, iopubTransports.tcp
	if ci.Transport == "ipc" {
		tr = iopubTransports.ipc
	}
	first := newFirstSubscriber(iopub)
	k.pub = newPublisher(func(frames [][]byte) error {
		first.wait(k.ctx)     // the first messages wait for a subscription (jupyter console's slow joiner)
		tr.waitForRoom(k.ctx) // back-pressure from readers; stalled and lagging ones are dropped
		size := 0
		for _, f := range frames {
			size += len(f)
		}
		mark := tr.written.Load()
		err := iopub.SendMulti(zmq4.NewMsgFrom(frames...))
		if err == nil {
			tr.awaitDelivery(k.ctx, mark, size) // zmq4's own queue stays empty
		}
		return err
	}, k.key, k.session, k.log)

	shellReqs := make(chan *Request, shellQueue)
	go k.receive("shell", k.socks.shell, func(r *Request) { shellReqs <- r })
	go k.receive("control", k.socks.control, func(r *Request) {
		k.control.Serve(k.responder(r, k.socks.control, &k.controlMu), r)
	})
	go k.receive("stdin", k.socks.stdin, k.stdinMessage)
	go k.heartbeat()
	go func() {
		for {
			select {
			case r := <-shellReqs:
				k.shell.Serve(k.responder(r, k.socks.shell, &k.shellMu), r)
			case <-k.ctx.Done():
				return
			}
		}
	}()
	return nil
}

// Wait blocks until the kernel has stopped (shutdown_request or Stop).
func (k *Kernel) Wait() { <-k.stopped }

// Interrupt stops the running cell and a pending stdin read. It is what
// interrupt_request and SIGINT do; the kernel keeps running.
func (k *Kernel) Interrupt() {
	if k.cfg.Runner != nil {
		k.cfg.Runner.Interrupt()
	}
	select {
	case k.interrupt <- struct{}{}:
	default:
	}
}

// stopGrace bounds each step of Stop (flushing iopub, closing sockets).
const stopGrace = time.Second

// Stop interrupts the running cell, flushes iopub and closes the sockets,
// each step under a watchdog so a stuck peer cannot keep the process alive.
func (k *Kernel) Stop() {
	k.stopOnce.Do(func() {
		k.Interrupt()
		if k.pub != nil {
			if !k.pub.Flush(stopGrace) {
				fmt.Fprintln(k.log, "tick: iopub did not drain before shutdown; some output may be lost")
			}
		}
		k.cancel()
		done := make(chan struct{})
		go func() {
			if k.pub != nil {
				k.pub.Close(stopGrace)
			}
			k.closeSockets()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(stopGrace):
			fmt.Fprintln(k.log, "tick: closing sockets timed out; exiting anyway")
		}
		close(k.stopped)
	})
}

func (k *Kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.socks.shell, k.socks.control, k.socks.stdin, k.socks.iopub, k.socks.hb} {
		if s != nil {
			_ = s.Close()
		}
	}
}

// receive reads one socket until the kernel stops, decoding and verifying
// each message; bad messages are logged and dropped.
func (k *Kernel) receive(name string, sock zmq4.Socket, handle func(*Request)) {
	for {
		zm, err := sock.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, net.ErrClosed) {
				return
			}
			fmt.Fprintf(k.log, "tick: %s receive: %v\n", name, err)
			continue
		}
		now := time.Now()
		msg, err := wire.Decode(zm.Frames, k.key)
		zm = zmq4.Msg{} // a big request's frames are garbage from here on
		var big *wire.HeaderTooLargeError
		if errors.As(err, &big) && msg.Header.MsgID != "" && msg.Header.MsgType != "" {
			fmt.Fprintf(k.log, "tick: %s: refused %s %s: %v\n", name, msg.Header.MsgType, msg.Header.MsgID, err)
			handle(&Request{Msg: msg, Received: now, Refused: err})
			continue
		}
		if err != nil {
			fmt.Fprintf(k.log, "tick: %s: dropped a message: %v\n", name, err)
			continue
		}
		handle(&Request{Msg: msg, Received: now})
	}
}

func (k *Kernel) stdinMessage(r *Request) {
	if r.Refused != nil {
		return // logged; its content was not read
	}
	if r.Type() != "input_reply" {
		fmt.Fprintf(k.log, "tick: stdin: ignoring %s (only input_reply is expected there)\n", r.Type())
		return
	}
	select {
	case k.inputs <- r.Msg:
	default:
		fmt.Fprintln(k.log, "tick: stdin: dropped an input_reply nobody was waiting for")
	}
}

func (k *Kernel) heartbeat() {
	for {
		msg, err := k.socks.hb.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			continue
		}
		if err := k.socks.hb.Send(msg); err != nil && k.ctx.Err() != nil {
			return
		}
	}
}
