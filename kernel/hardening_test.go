package kernel_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/wire"
	"github.com/tick-kernel/tick/kernel/zmtp"
)

// The failures of issue 17 at the socket level, each reproduced by a raw
// peer; after each, a well-behaved client still gets kernel_info and an
// execute reply.

var sockets = []string{"shell", "control", "stdin", "iopub", "hb"}

// syncLog is a log the kernel writes and the test reads.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startKernel(t *testing.T, lim zmtp.Limits) (*kernel.Kernel, kernel.ConnectionInfo, *syncLog) {
	t.Helper()
	ci := kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "hardening", SignatureScheme: "hmac-sha256"}
	log := &syncLog{}
	k := kernel.New(kernel.Config{Conn: ci, Runner: &fakeEcho{}, Log: log, Info: kernel.Info{Version: "test"}, Limits: lim})
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Stop)
	return k, ci, log
}

// healthy checks that a new client gets kernel_info and an execute reply.
func healthy(t *testing.T, k *kernel.Kernel, ci kernel.ConnectionInfo) {
	t.Helper()
	c := dial(t, k, ci, []byte(ci.Key))
	c.ready()
	h := c.send(c.shell, "execute_request", map[string]any{"code": "1+1"}, c.key)
	// A bound against a wedged kernel, not a speed claim: generous, so a
	// busy machine does not trip it.
	if r, ok := c.await(c.shellMsgs, h, "execute_reply", time.Minute); !ok || !strings.Contains(string(r.Content), `"status":"ok"`) {
		t.Fatalf("after the attack, execute_reply = %v", r)
	}
}

// rawPeer is a ZMTP 3.0 peer written by hand: it sends exactly the bytes a
// test asks for.
type rawPeer struct {
	t *testing.T
	net.Conn
}

func dialRaw(t *testing.T, k *kernel.Kernel, sock string) *rawPeer {
	t.Helper()
	return dialRawWith(t, k, sock, net.Dialer{})
}

// dialRawSmallWindow dials with a 4 KiB receive buffer, so a peer that
// does not read fills its TCP window after a few replies.
func dialRawSmallWindow(t *testing.T, k *kernel.Kernel, sock string) *rawPeer {
	return dialRawWith(t, k, sock, net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = setRcvBuf(fd, 4096) })
		if err != nil {
			return err
		}
		return serr
	}})
}

func dialRawWith(t *testing.T, k *kernel.Kernel, sock string, d net.Dialer) *rawPeer {
	t.Helper()
	c, err := d.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", k.Port(sock)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawPeer{t: t, Conn: c}
}

// handshake sends a greeting and READY (with the given socket type and
// identity) and reads the kernel's greeting.
func (p *rawPeer) handshake(sockType, identity string) {
	g := make([]byte, 64)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	body := []byte{5}
	body = append(body, "READY"...)
	prop := func(k, v string) {
		body = append(body, byte(len(k)))
		body = append(body, k...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(v)))
		body = append(body, v...)
	}
	prop("Socket-Type", sockType)
	if identity != "" {
		prop("Identity", identity)
	}
	p.write(g)
	p.frame(0x04, body)
	var peer [64]byte
	p.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(p, peer[:]); err != nil {
		p.t.Fatalf("reading the kernel's greeting: %v", err)
	}
}

func (p *rawPeer) write(b []byte) {
	if _, err := p.Write(b); err != nil {
		p.t.Fatalf("raw write: %v", err)
	}
}

func (p *rawPeer) frame(flags byte, body []byte) {
	if len(body) > 255 {
		hdr := []byte{flags | 0x02}
		p.write(binary.BigEndian.AppendUint64(hdr, uint64(len(body))))
	} else {
		p.write([]byte{flags, byte(len(body))})
	}
	p.write(body)
}

// message sends a signed Jupyter message.
func (p *rawPeer) message(msgType, key string) {
	raw, _ := json.Marshal(map[string]any{})
	frames, err := wire.Encode(&wire.Message{Header: wire.NewHeader(msgType, "raw"), Content: raw}, []byte(key))
	if err != nil {
		p.t.Fatal(err)
	}
	for i, f := range frames {
		flags := byte(0)
		if i < len(frames)-1 {
			flags = 0x01
		}
		p.frame(flags, f)
	}
}

// closedByKernel reports whether the kernel closed the connection within
// timeout (reading and discarding what it sent).
func (p *rawPeer) closedByKernel(timeout time.Duration) bool {
	p.SetReadDeadline(time.Now().Add(timeout))
	_, err := io.Copy(io.Discard, p)
	var ne net.Error
	return err == nil || !(errorsAs(err, &ne) && ne.Timeout())
}

func errorsAs(err error, ne *net.Error) bool {
	e, ok := err.(net.Error)
	if ok {
		*ne = e
	}
	return ok
}

func sockType(sock string) string {
	switch sock {
	case "iopub":
		return "SUB"
	case "hb":
		return "REQ"
	}
	return "DEALER"
}

func TestHugeFrameHeaderIsRefused(t *testing.T) {
	k, ci, log := startKernel(t, zmtp.Limits{})
	for _, sock := range sockets {
		t.Run(sock, func(t *testing.T) {
			p := dialRaw(t, k, sock)
			p.handshake(sockType(sock), "")
			// One frame header announcing 1 TiB, and a few body bytes.
			p.write(binary.BigEndian.AppendUint64([]byte{0x02}, 1<<40))
			p.write([]byte("xxxx"))
			if !p.closedByKernel(5 * time.Second) {
				t.Fatal("the kernel kept the connection that announced a 1 TiB frame")
			}
		})
	}
	if !strings.Contains(log.String(), "over the limit") {
		t.Errorf("no log line for the refused frames:\n%s", log)
	}
	healthy(t, k, ci)
}

// The idle peers are kept for an hour: a client that had to wait for them
// to be dropped would not be served within healthy's minute.
func TestIdleConnectionDoesNotBlockOthers(t *testing.T) {
	k, ci, _ := startKernel(t, zmtp.Limits{Handshake: time.Hour})
	for _, sock := range sockets {
		dialRaw(t, k, sock) // connects and never sends a byte
	}
	healthy(t, k, ci)
}

func TestSilentPeerIsDroppedAfterHandshakeDeadline(t *testing.T) {
	k, ci, log := startKernel(t, zmtp.Limits{Handshake: 300 * time.Millisecond})
	p := dialRaw(t, k, "shell")
	if !p.closedByKernel(10 * time.Second) {
		t.Fatal("a peer that never sent a greeting was kept")
	}
	if !strings.Contains(log.String(), "no complete ZMTP handshake") {
		t.Errorf("log: %s", log)
	}
	healthy(t, k, ci)
}

// readFrame reads one ZMTP frame: its flags and body.
func (p *rawPeer) readFrame(timeout time.Duration) (byte, []byte, error) {
	p.SetReadDeadline(time.Now().Add(timeout))
	var hdr [9]byte
	if _, err := io.ReadFull(p, hdr[:2]); err != nil {
		return 0, nil, err
	}
	size := uint64(hdr[1])
	if hdr[0]&0x02 != 0 {
		if _, err := io.ReadFull(p, hdr[2:9]); err != nil {
			return 0, nil, err
		}
		size = binary.BigEndian.Uint64(hdr[1:9])
	}
	body := make([]byte, size)
	_, err := io.ReadFull(p, body)
	return hdr[0], body, err
}

// TestDuplicateIdentityIsRekeyed: a second peer claiming a connected
// client's identity received copies of that client's replies. It now gets
// an identity of its own: it receives none of the client's replies, and
// its own requests are still answered (several jupyter_client clients of
// one KernelManager share an identity).
func TestDuplicateIdentityIsRekeyed(t *testing.T) {
	k, ci, log := startKernel(t, zmtp.Limits{})
	c := dial(t, k, ci, []byte(ci.Key)) // shell identity "client-shell"
	c.ready()
	dup := dialRaw(t, k, "shell")
	dup.handshake("DEALER", "client-shell")
	if fl, _, err := dup.readFrame(5 * time.Second); err != nil || fl&0x04 == 0 {
		t.Fatalf("the kernel's READY: flags %x, %v", fl, err)
	}
	for range 3 {
		h := c.send(c.shell, "execute_request", map[string]any{"code": "1+1"}, c.key)
		if _, ok := c.await(c.shellMsgs, h, "execute_reply", 5*time.Second); !ok {
			t.Fatal("the first client lost its reply")
		}
	}
	if _, body, err := dup.readFrame(300 * time.Millisecond); err == nil {
		t.Fatalf("the duplicate received %q, addressed to the first client", body)
	}
	if !strings.Contains(log.String(), `claimed identity "client-shell"`) {
		t.Errorf("log: %s", log)
	}
	dup.message("kernel_info_request", ci.Key)
	replied := false
	for !replied {
		fl, body, err := dup.readFrame(5 * time.Second)
		if err != nil {
			t.Fatalf("the duplicate's own request was not answered: %v", err)
		}
		replied = fl&0x04 == 0 && strings.Contains(string(body), "kernel_info_reply")
	}
	h := c.send(c.shell, "kernel_info_request", map[string]any{}, c.key)
	if _, ok := c.await(c.shellMsgs, h, "kernel_info_reply", 5*time.Second); !ok {
		t.Fatal("no kernel_info_reply for the first client")
	}
}

func TestPeerThatStopsReadingDoesNotWedgeShell(t *testing.T) {
	k, ci, log := startKernel(t, zmtp.Limits{Write: 500 * time.Millisecond})
	p := dialRawSmallWindow(t, k, "shell")
	p.handshake("DEALER", "never-reads")
	// The peer reads none of the replies and keeps sending requests until
	// the kernel disconnects it. A fixed number of requests is not enough:
	// how many replies fit in the socket buffers depends on the machine's
	// tcp_wmem (CI once buffered all of 20,000 and no write ever blocked).
	stop := make(chan struct{})
	defer close(stop)
	var batch []byte
	for range 64 {
		raw, _ := json.Marshal(map[string]any{})
		frames, _ := wire.Encode(&wire.Message{Header: wire.NewHeader("kernel_info_request", "raw"), Content: raw}, []byte(ci.Key))
		for i, f := range frames {
			fl := byte(0)
			if i < len(frames)-1 {
				fl = 1
			}
			if len(f) > 255 {
				batch = binary.BigEndian.AppendUint64(append(batch, fl|2), uint64(len(f)))
			} else {
				batch = append(batch, fl, byte(len(f)))
			}
			batch = append(batch, f...)
		}
	}
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := p.Write(batch); err != nil {
				return
			}
		}
	}()
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(log.String(), "did not read for") {
		if time.Now().After(deadline) {
			t.Fatalf("the non-reading peer was never disconnected; log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	healthy(t, k, ci)
}

// TestExposureWarnings: an empty key and a wildcard address were accepted
// silently; both are warned about on the log (stderr) and in the banner.
func TestExposureWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		ci   kernel.ConnectionInfo
		want []string
	}{
		{"empty key", kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1"}, []string{"empty key"}},
		{"wildcard", kernel.ConnectionInfo{Transport: "tcp", IP: "0.0.0.0", Key: "k", SignatureScheme: "hmac-sha256"}, []string{"all network interfaces (0.0.0.0)"}},
		{"both", kernel.ConnectionInfo{Transport: "tcp", IP: "0.0.0.0"}, []string{"empty key", "all network interfaces"}},
		{"neither", kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "k", SignatureScheme: "hmac-sha256"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &syncLog{}
			k := kernel.New(kernel.Config{Conn: tc.ci, Runner: &fakeEcho{}, Log: log, Info: kernel.Info{Version: "test"}})
			if err := k.Start(); err != nil {
				t.Fatal(err)
			}
			defer k.Stop()
			ci := tc.ci
			ci.IP = "127.0.0.1"
			c := dial(t, k, ci, []byte(ci.Key))
			h := c.send(c.shell, "kernel_info_request", map[string]any{}, c.key)
			r, ok := c.await(c.shellMsgs, h, "kernel_info_reply", 5*time.Second)
			if !ok {
				t.Fatal("no kernel_info_reply")
			}
			var info struct{ Banner string }
			_ = json.Unmarshal(r.Content, &info)
			for _, w := range tc.want {
				if !strings.Contains(log.String(), w) || !strings.Contains(info.Banner, w) {
					t.Errorf("%q missing from the log %q or the banner %q", w, log, info.Banner)
				}
			}
			if tc.want == nil && (strings.Contains(log.String(), "WARNING") || strings.Contains(info.Banner, "WARNING")) {
				t.Errorf("a warning for a safe connection: %q / %q", log, info.Banner)
			}
		})
	}
}

// TestIPv6Loopback: ip "::1" was refused ("too many colons").
func TestIPv6Loopback(t *testing.T) {
	ci := kernel.ConnectionInfo{Transport: "tcp", IP: "::1", Key: "k", SignatureScheme: "hmac-sha256"}
	k := kernel.New(kernel.Config{Conn: ci, Runner: &fakeEcho{}, Log: io.Discard})
	if err := k.Start(); err != nil {
		if strings.Contains(err.Error(), "cannot assign requested address") {
			t.Skipf("no IPv6 loopback here: %v", err)
		}
		t.Fatal(err)
	}
	defer k.Stop()
	ci.IP = "[::1]"
	c := dial(t, k, ci, []byte(ci.Key))
	c.ready()
}
