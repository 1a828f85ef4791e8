package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

var testKey = []byte("a0436f6c-1916-498b-8eb9-e81ab9368e84")

func sample() *Message {
	return &Message{
		Identities:   [][]byte{[]byte("peer-1"), []byte("peer-2")},
		Header:       NewHeader("execute_reply", "sess"),
		ParentHeader: NewHeader("execute_request", "client"),
		Metadata:     map[string]any{"k": "v"},
		Content:      json.RawMessage(`{"status":"ok","execution_count":3}`),
		Buffers:      [][]byte{{0, 1, 2}},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  []byte
		msg  *Message
	}{
		{"signed", testKey, sample()},
		{"unsigned", nil, sample()},
		{"no identities, empty parent", testKey, &Message{Header: NewHeader("status", "s"), Content: json.RawMessage(`{"execution_state":"idle"}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames, err := Encode(tc.msg, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(frames, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if got.Header != tc.msg.Header || got.ParentHeader != tc.msg.ParentHeader {
				t.Errorf("headers: got %+v / %+v, want %+v / %+v", got.Header, got.ParentHeader, tc.msg.Header, tc.msg.ParentHeader)
			}
			if len(got.Identities) != len(tc.msg.Identities) {
				t.Fatalf("identities: got %q, want %q", got.Identities, tc.msg.Identities)
			}
			for i := range got.Identities {
				if !bytes.Equal(got.Identities[i], tc.msg.Identities[i]) {
					t.Errorf("identity %d: got %q, want %q", i, got.Identities[i], tc.msg.Identities[i])
				}
			}
			want := string(tc.msg.Content)
			if want == "" {
				want = "{}"
			}
			if string(got.Content) != want {
				t.Errorf("content: got %s, want %s", got.Content, want)
			}
			if len(got.Buffers) != len(tc.msg.Buffers) {
				t.Errorf("buffers: got %d, want %d", len(got.Buffers), len(tc.msg.Buffers))
			}
			sig := frames[len(tc.msg.Identities)+1]
			if (len(sig) == 0) != (len(tc.key) == 0) {
				t.Errorf("signature %q with key %q", sig, tc.key)
			}
		})
	}
}

func TestHeaderVersion(t *testing.T) {
	h := NewHeader("kernel_info_reply", "s")
	if h.Version != "5.3" || h.MsgID == "" || h.Date == "" {
		t.Errorf("NewHeader = %+v", h)
	}
	if NewHeader("x", "s").MsgID == h.MsgID {
		t.Error("msg_id repeats")
	}
}

func TestBadSignature(t *testing.T) {
	frames, err := Encode(sample(), testKey)
	if err != nil {
		t.Fatal(err)
	}
	sigAt := 3 // two identities and the delimiter come first
	mutate := func(f func([][]byte)) [][]byte {
		c := make([][]byte, len(frames))
		for i := range frames {
			c[i] = append([]byte(nil), frames[i]...)
		}
		f(c)
		return c
	}
	for _, tc := range []struct {
		name    string
		frames  [][]byte
		key     []byte
		missing bool
	}{
		{"wrong key", frames, []byte("other"), false},
		{"missing", mutate(func(c [][]byte) { c[sigAt] = nil }), testKey, true},
		{"not hex", mutate(func(c [][]byte) { c[sigAt] = []byte("zz") }), testKey, false},
		{"flipped digit", mutate(func(c [][]byte) {
			if c[sigAt][0] == '0' {
				c[sigAt][0] = '1'
			} else {
				c[sigAt][0] = '0'
			}
		}), testKey, false},
		{"tampered content", mutate(func(c [][]byte) { c[sigAt+4] = []byte(`{"status":"error"}`) }), testKey, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.frames, tc.key)
			var se *SignatureError
			if !errors.As(err, &se) {
				t.Fatalf("Decode error = %v, want *SignatureError", err)
			}
			if se.Missing != tc.missing {
				t.Errorf("Missing = %v, want %v", se.Missing, tc.missing)
			}
		})
	}
}

func TestNoKeyAcceptsAnySignature(t *testing.T) {
	frames, err := Encode(sample(), testKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(frames, nil); err != nil {
		t.Errorf("unsigned connection rejected a message: %v", err)
	}
}

func TestMalformed(t *testing.T) {
	d := []byte(Delimiter)
	obj := []byte("{}")
	for _, tc := range []struct {
		name   string
		frames [][]byte
		part   string
	}{
		{"empty", nil, "delimiter"},
		{"no delimiter", [][]byte{obj, obj, obj, obj, obj}, "delimiter"},
		{"too few frames", [][]byte{d, nil, obj, obj, obj}, "frames"},
		{"header not json", [][]byte{d, nil, []byte("{nope"), obj, obj, obj}, "header"},
		{"header not object", [][]byte{d, nil, []byte("[1]"), obj, obj, obj}, "header"},
		{"parent empty", [][]byte{d, nil, obj, nil, obj, obj}, "parent_header"},
		{"metadata string", [][]byte{d, nil, obj, obj, []byte(`"x"`), obj}, "metadata"},
		{"content null", [][]byte{d, nil, obj, obj, obj, []byte("null")}, "content"},
		{"header wrong field type", [][]byte{d, nil, []byte(`{"msg_id":3}`), obj, obj, obj}, "header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.frames, nil)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Decode error = %v, want *FormatError", err)
			}
			if fe.Part != tc.part {
				t.Errorf("Part = %q, want %q (%v)", fe.Part, tc.part, err)
			}
		})
	}
}

func TestDecodeCopiesFrames(t *testing.T) {
	frames, _ := Encode(sample(), nil)
	m, err := Decode(frames, nil)
	if err != nil {
		t.Fatal(err)
	}
	frames[0][0] = 'X'
	if m.Identities[0][0] == 'X' {
		t.Error("decoded identities alias the input frames")
	}
}

// TestHeaderTooLarge: a header over MaxHeader is refused with the fields a
// reply needs to reach its sender (msg_id, msg_type, session; a field too
// long is blanked), and nothing else of the message is read.
func TestHeaderTooLarge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header Header
		want   Header
	}{
		{"big username", Header{MsgID: "m1", Session: "s", Username: string(bytes.Repeat([]byte("u"), 2*MaxHeader)), MsgType: "execute_request", Version: "5.3"},
			Header{MsgID: "m1", Session: "s", MsgType: "execute_request", Version: "5.3"}},
		{"big msg_id", Header{MsgID: string(bytes.Repeat([]byte("m"), 2*MaxHeader)), Session: "s", MsgType: "kernel_info_request"},
			Header{Session: "s", MsgType: "kernel_info_request"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := &Message{Identities: [][]byte{[]byte("peer")}, Header: tc.header, Content: json.RawMessage(`{"code":"1+1"}`)}
			frames, err := Encode(msg, testKey)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(frames, testKey)
			var big *HeaderTooLargeError
			if !errors.As(err, &big) || big.Size <= MaxHeader {
				t.Fatalf("Decode: %v, want a *HeaderTooLargeError", err)
			}
			if got == nil || got.Header != tc.want || len(got.Identities) != 1 || got.Content != nil {
				t.Fatalf("got %+v, want header %+v, the identity and no content", got, tc.want)
			}
		})
	}
	// A forged one is still a signature error.
	msg := &Message{Header: Header{MsgID: "m", MsgType: "execute_request", Username: string(bytes.Repeat([]byte("u"), 2*MaxHeader))}}
	frames, _ := Encode(msg, []byte("another key"))
	if _, err := Decode(frames, testKey); !errors.As(err, new(*SignatureError)) {
		t.Errorf("a big header with a bad signature: %v, want a *SignatureError", err)
	}
}
