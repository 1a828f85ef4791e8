package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/wire"
)

// client is a minimal Jupyter client over zmq4, as jupyter_client does it.
type client struct {
	t                    *testing.T
	key                  []byte
	shell, control, hb   zmq4.Socket
	stdin                zmq4.Socket
	stdinMsgs            chan *wire.Message
	iopub                zmq4.Socket
	iopubMsgs, shellMsgs chan *wire.Message
	controlMsgs          chan *wire.Message
}

func dial(t *testing.T, k *kernel.Kernel, ci kernel.ConnectionInfo, key []byte) *client {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ep := func(name string) string {
		if ci.Transport == "ipc" {
			return fmt.Sprintf("ipc://%s-%d", ci.IP, k.Port(name))
		}
		return fmt.Sprintf("tcp://%s:%d", ci.IP, k.Port(name))
	}
	c := &client{t: t, key: key,
		shell:     zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("client-shell"))),
		control:   zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("client-control"))),
		hb:        zmq4.NewReq(ctx),
		iopub:     zmq4.NewSub(ctx),
		iopubMsgs: make(chan *wire.Message, 1000), shellMsgs: make(chan *wire.Message, 100),
		controlMsgs: make(chan *wire.Message, 100), stdinMsgs: make(chan *wire.Message, 10),
		// jupyter_client gives shell and stdin the same identity: the
		// kernel addresses input_request to the shell request's sender.
		stdin: zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("client-shell")))}
	for name, s := range map[string]zmq4.Socket{"shell": c.shell, "control": c.control, "hb": c.hb, "iopub": c.iopub, "stdin": c.stdin} {
		if err := s.Dial(ep(name)); err != nil {
			t.Fatalf("dial %s: %v", name, err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.iopub, c.iopubMsgs)
	go c.pump(c.shell, c.shellMsgs)
	go c.pump(c.control, c.controlMsgs)
	go c.pump(c.stdin, c.stdinMsgs)
	t.Cleanup(func() {
		for _, s := range []zmq4.Socket{c.shell, c.control, c.hb, c.iopub, c.stdin} {
			s.Close()
		}
	})
	return c
}

func (c *client) pump(s zmq4.Socket, out chan<- *wire.Message) {
	for {
		m, err := s.Recv()
		if err != nil {
			return
		}
		msg, err := wire.Decode(m.Frames, c.key)
		if err != nil {
			continue
		}
		out <- msg
	}
}

func (c *client) send(s zmq4.Socket, msgType string, content any, key []byte) wire.Header {
	raw, _ := json.Marshal(content)
	h := wire.NewHeader(msgType, "client")
	frames, err := wire.Encode(&wire.Message{Header: h, Content: raw}, key)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
	return h
}

// await returns the first message on ch answering parent with msgType.
func (c *client) await(ch <-chan *wire.Message, parent wire.Header, msgType string, timeout time.Duration) (*wire.Message, bool) {
	deadline := time.After(timeout)
	for {
		select {
		case m := <-ch:
			if m.ParentHeader.MsgID == parent.MsgID && m.Header.MsgType == msgType {
				return m, true
			}
		case <-deadline:
			return nil, false
		}
	}
}

// ready sends kernel_info until iopub shows traffic (the slow joiner).
func (c *client) ready() {
	for range 100 {
		h := c.send(c.shell, "kernel_info_request", map[string]any{}, c.key)
		if _, ok := c.await(c.shellMsgs, h, "kernel_info_reply", 5*time.Second); !ok {
			c.t.Fatal("no kernel_info_reply")
		}
		if _, ok := c.await(c.iopubMsgs, h, "status", 100*time.Millisecond); ok {
			return
		}
	}
	c.t.Fatal("iopub never delivered a status message")
}

func TestSmokeOverZMQ(t *testing.T) {
	key := []byte("smoke-key")
	for _, ci := range []kernel.ConnectionInfo{
		{Transport: "tcp", IP: "127.0.0.1", Key: string(key), SignatureScheme: "hmac-sha256"}, // ports 0: any free
		{Transport: "ipc", IP: filepath.Join(t.TempDir(), "kernel"), Key: string(key), SignatureScheme: "hmac-sha256",
			ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5},
	} {
		t.Run(ci.Transport, func(t *testing.T) { smoke(t, ci, key) })
	}
}

func smoke(t *testing.T, ci kernel.ConnectionInfo, key []byte) {
	runner := &fakeEcho{}
	k := kernel.New(kernel.Config{Conn: ci, Runner: runner, Log: io.Discard, Info: kernel.Info{Version: "smoke"}})
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	c := dial(t, k, ci, key)
	c.ready()

	// A badly signed request is dropped; the kernel keeps answering.
	bad := c.send(c.shell, "execute_request", map[string]any{"code": "evil"}, []byte("wrong key"))
	good := c.send(c.shell, "execute_request", map[string]any{"code": "hello"}, key)
	reply, ok := c.await(c.shellMsgs, good, "execute_reply", 5*time.Second)
	if !ok || !strings.Contains(string(reply.Content), `"status":"ok"`) {
		t.Fatalf("execute_reply = %v", reply)
	}
	if reply.Header.Version != "5.3" || reply.ParentHeader.MsgID != good.MsgID {
		t.Errorf("reply header %+v parent %+v", reply.Header, reply.ParentHeader)
	}
	out, ok := c.await(c.iopubMsgs, good, "stream", 5*time.Second)
	if !ok || !strings.Contains(string(out.Content), "echo: hello") {
		t.Errorf("stream = %v", out)
	}
	for _, code := range runner.seen() {
		if code == "evil" {
			t.Error("the badly signed request ran")
		}
	}
	_ = bad

	// stdin: the input_request goes to the shell sender with the execute
	// request as parent; the input_reply answers the cell.
	read := c.send(c.shell, "execute_request", map[string]any{"code": "read", "allow_stdin": true}, key)
	req, ok := c.await(c.stdinMsgs, read, "input_request", 5*time.Second)
	if !ok || !strings.Contains(string(req.Content), `"prompt":"name? "`) {
		t.Fatalf("input_request = %v", req)
	}
	raw, _ := json.Marshal(map[string]any{"value": "gopher"})
	frames, _ := wire.Encode(&wire.Message{Header: wire.NewHeader("input_reply", "client"), ParentHeader: req.Header, Content: raw}, key)
	if err := c.stdin.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	if out, ok := c.await(c.iopubMsgs, read, "stream", 5*time.Second); !ok || !strings.Contains(string(out.Content), "read: gopher") {
		t.Errorf("after input_reply, stream = %v", out)
	}
	// An interrupt ends a pending read.
	read = c.send(c.shell, "execute_request", map[string]any{"code": "read", "allow_stdin": true}, key)
	if _, ok := c.await(c.stdinMsgs, read, "input_request", 5*time.Second); !ok {
		t.Fatal("no second input_request")
	}
	c.send(c.control, "interrupt_request", map[string]any{}, key)
	if out, ok := c.await(c.iopubMsgs, read, "stream", 5*time.Second); !ok || !strings.Contains(string(out.Content), "interrupted") {
		t.Errorf("after interrupt, stream = %v", out)
	}

	// Heartbeat echoes.
	if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := c.hb.Recv(); err != nil || string(m.Frames[0]) != "ping" {
		t.Errorf("heartbeat: %v %v", m, err)
	}

	// Shutdown on control: reply, then the kernel stops.
	h := c.send(c.control, "shutdown_request", map[string]any{"restart": false}, key)
	if _, ok := c.await(c.controlMsgs, h, "shutdown_reply", 5*time.Second); !ok {
		t.Fatal("no shutdown_reply")
	}
	stopped := make(chan struct{})
	go func() { k.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("kernel did not stop after shutdown_request")
	}
}

// fakeEcho echoes each cell's code on stdout.
type fakeEcho struct {
	mu    sync.Mutex
	codes []string
}

func (f *fakeEcho) Execute(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	f.mu.Lock()
	f.codes = append(f.codes, c.Code)
	f.mu.Unlock()
	if c.Code == "read" {
		v, err := c.Stdin("name? ", false)
		if err != nil {
			v = err.Error()
		}
		sink.Stream("stdout", "read: "+v)
		return session.Result{}
	}
	sink.Stream("stdout", "echo: "+c.Code)
	return session.Result{Value: &display.Data{Bundle: display.Bundle{"text/plain": "1"}}}
}
func (f *fakeEcho) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.codes...)
}
func (f *fakeEcho) Complete(string, int) session.Completion     { return session.Completion{} }
func (f *fakeEcho) Inspect(string, int, int) session.Inspection { return session.Inspection{} }
func (f *fakeEcho) IsComplete(string) session.Completeness {
	return session.Completeness{Status: "complete"}
}
func (f *fakeEcho) Interrupt() {}
