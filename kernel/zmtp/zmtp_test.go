package zmtp

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

func long(flags byte, size uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{flags | flagLong}, size)
}

func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		max   int64
		input []byte
		what  string // "" when the input is within the limits
	}{
		{"short frame", 100, []byte{0, 3, 'a', 'b', 'c'}, ""},
		{"empty frames", 1000, []byte{1, 0, 1, 0, 0, 0}, ""},
		{"long frame at the limit", 1 << 20, long(0, 1<<20-frameOverhead), ""},
		{"1 TiB frame", 1 << 30, long(0, 1<<40), "frame"},
		{"frame over a small limit", 10, []byte{0, 11}, "frame"},
		{"message over the limit", 200, append([]byte{1, 100}, make([]byte, 100)...), ""},
		{"two frames over the limit", 300, append(append([]byte{1, 100}, make([]byte, 100)...), 0, 100), "message"},
		{"limit resets after the last frame", 300, append(append([]byte{0, 100}, make([]byte, 100)...), 0, 100), ""},
		{"huge command", 1 << 30, long(flagCommand, maxCommand+1), "command"},
		{"max uint64", 1 << 30, long(0, ^uint64(0)), "frame"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Byte by byte: the check must not depend on how reads split.
			s := Scanner{MaxMessage: tc.max}
			var err error
			for i := range tc.input {
				if err = s.Feed(tc.input[i : i+1]); err != nil {
					break
				}
			}
			var se *SizeError
			switch {
			case tc.what == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.what != "" && !errors.As(err, &se):
				t.Fatalf("err = %v, want a %s SizeError", err, tc.what)
			case tc.what != "" && se.What != tc.what:
				t.Fatalf("SizeError.What = %q, want %q", se.What, tc.what)
			case tc.what != "" && !errors.Is(err, ErrTooLarge):
				t.Fatal("SizeError does not match ErrTooLarge")
			}
		})
	}
}

func TestCommandIdentity(t *testing.T) {
	body := []byte("\x05READY\x0bSocket-Type\x00\x00\x00\x06DEALER\x08Identity\x00\x00\x00\x03abc")
	if got := commandIdentity(body); got != "abc" {
		t.Errorf("identity = %q", got)
	}
	for _, bad := range [][]byte{nil, {9}, []byte("\x05READY\x08Identity\xff\xff\xff\xff"), []byte("\x05HELLO")} {
		if got := commandIdentity(bad); got != "" {
			t.Errorf("commandIdentity(%q) = %q", bad, got)
		}
	}
}

func TestWithIdentity(t *testing.T) {
	body := []byte("\x05READY\x0bSocket-Type\x00\x00\x00\x06DEALER\x08Identity\x00\x00\x00\x03abc")
	out, ok := withIdentity(body, "abc~new")
	if !ok || commandIdentity(out) != "abc~new" || !bytes.Contains(out, []byte("DEALER")) {
		t.Fatalf("withIdentity = %q, %v", out, ok)
	}
	if _, ok := withIdentity([]byte("\x05READY\x0bSocket-Type\x00\x00\x00\x06DEALER"), "x"); ok {
		t.Error("a READY without identity was re-keyed")
	}
	if f := commandFrame(bytes.Repeat([]byte("x"), 300)); f[0] != flagCommand|flagLong || len(f) != 309 {
		t.Errorf("long command frame header %x, length %d", f[:9], len(f))
	}
}

// failingListener fails every Accept, as a listener does when file
// descriptors are exhausted.
type failingListener struct {
	net.Listener
	calls atomic.Int64
}

func (f *failingListener) Accept() (net.Conn, error) {
	f.calls.Add(1)
	return nil, errors.New("accept: too many open files")
}

func TestAcceptErrorsBackOff(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &failingListener{Listener: inner}
	ctx, cancel := context.WithCancel(context.Background())
	l := NewListener(ctx, f, Limits{}, nil)
	time.Sleep(300 * time.Millisecond)
	cancel()
	_ = l.Close()
	// 5 ms doubling: 5+10+20+40+80+160 > 300 ms, so at most about 7 calls;
	// a spinning loop makes millions.
	if n := f.calls.Load(); n > 20 {
		t.Errorf("%d Accept calls in 300 ms: the accept loop does not back off", n)
	}
}

// FuzzScanner feeds arbitrary bytes, as they come off the wire after the
// greeting, split at an arbitrary point: the scanner must never panic, and
// must refuse exactly the inputs whose frame headers announce more than
// the limit.
func FuzzScanner(f *testing.F) {
	f.Add([]byte{0, 3, 'a', 'b', 'c'}, uint8(1))
	f.Add(long(0, 1<<40), uint8(4))
	f.Add(append([]byte{1, 0, 4, 5}, "READY"...), uint8(0))
	f.Add(long(flagCommand|flagMore, 7), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		const limit = 4096
		cut := min(int(split), len(data))
		s := Scanner{MaxMessage: limit}
		err := s.Feed(data[:cut])
		if err == nil {
			err = s.Feed(data[cut:])
		}
		whole := Scanner{MaxMessage: limit}
		if werr := whole.Feed(data); (werr == nil) != (err == nil) {
			t.Fatalf("split at %d: %v; whole: %v", cut, err, werr)
		}
		if err != nil && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("error %v is not ErrTooLarge", err)
		}
	})
}

// FuzzHandshake feeds arbitrary bytes to the listener's handshake as a
// peer would send them: it must return (refusing or accepting), never
// panic or read past a command's limit.
func FuzzHandshake(f *testing.F) {
	g := greeting()
	f.Add(append(append([]byte{}, g...), append([]byte{4, 6, 5}, "READY"...)...))
	f.Add(append(append([]byte{}, g...), long(flagCommand, 1<<40)...))
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := net.Pipe()
		defer a.Close()
		go func() {
			_, _ = b.Read(make([]byte, greetingLen)) // the kernel's greeting
			_, _ = b.Write(data)
			b.Close()
		}()
		_ = a.SetDeadline(time.Now().Add(2 * time.Second))
		pre, cmd, err := readHandshake(a)
		if err == nil && (len(pre) > len(data) || len(cmd) > maxCommand) {
			t.Fatalf("handshake read %d bytes from %d", len(pre), len(data))
		}
	})
}
