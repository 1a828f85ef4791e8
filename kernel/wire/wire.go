// Package wire is the Jupyter messaging wire format: it turns the ZeroMQ
// frames of one message into a Message and back, signing and verifying with
// HMAC-SHA256. It is pure: no sockets, no goroutines, bounds checked and
// fuzzed, so every other part of the kernel can trust a decoded Message.
//
// A message on the wire is
//
//	identities... "<IDS|MSG>" signature header parent_header metadata content buffers...
//
// where the signature is the hex HMAC-SHA256 of the four JSON frames that
// follow it (empty when the connection key is empty).
package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Delimiter separates the routing identities from the message proper.
const Delimiter = "<IDS|MSG>"

// ProtocolVersion is the messaging protocol version tick speaks; it goes
// into every header it sends.
const ProtocolVersion = "5.3"

// Header is a message header (also used as the parent header of replies).
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// IsZero reports whether h is the empty header (encoded as {}).
func (h Header) IsZero() bool { return h == Header{} }

// NewHeader returns a fresh header for a message of msgType in the given
// session: a random msg_id, the current UTC date and protocol version 5.3.
func NewHeader(msgType, session string) Header {
	return Header{
		MsgID:    uuid.NewString(),
		Session:  session,
		Username: "tick",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// Message is one decoded Jupyter message.
type Message struct {
	// Identities are the ZeroMQ routing prefixes (ROUTER peers). Replies
	// echo the identities of their request.
	Identities [][]byte
	Header     Header
	// ParentHeader is the header of the request this message answers; the
	// zero Header when there is none.
	ParentHeader Header
	Metadata     map[string]any
	// Content is the msg_type specific body, kept raw so each handler
	// decodes it into its own struct. Nil encodes as {}.
	Content json.RawMessage
	Buffers [][]byte
}

// SignatureError reports a message whose HMAC signature is missing or does
// not match the connection key. Such messages must be dropped.
type SignatureError struct {
	// Missing is true when the message carried no signature at all.
	Missing bool
}

func (e *SignatureError) Error() string {
	if e.Missing {
		return "wire: message has no signature but the connection has a key; dropping it (is the client using the right connection file?)"
	}
	return "wire: message signature does not match the connection key; dropping it (is the client using the right connection file?)"
}

// FormatError reports frames that are not a Jupyter message: no delimiter,
// too few frames, or a part that is not the JSON object it must be.
type FormatError struct {
	// Part names what is wrong: "delimiter", "frames", "header",
	// "parent_header", "metadata" or "content".
	Part string
	Err  error
}

func (e *FormatError) Error() string {
	if e.Err == nil {
		return "wire: malformed message: " + e.Part
	}
	return fmt.Sprintf("wire: malformed message %s: %v", e.Part, e.Err)
}

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }

// MaxHeader bounds a message's header frame. A kernel repeats the header
// of a request as the parent header of every message it sends about it
// (status busy and idle, execute_input, outputs, the reply), so a big one
// is multiplied: a 40 MB username field left the kernel at 350 MB of RSS.
// Jupyter's headers are a few hundred bytes.
const MaxHeader = 64 << 10

// maxHeaderField bounds each field kept of a header over MaxHeader.
const maxHeaderField = 1 << 10

// HeaderTooLargeError reports a header frame over MaxHeader. Decode returns
// it with a Message whose Header keeps only the fields that identify the
// request (msg_id, msg_type, session, version, date; those no longer than
// 1 KiB), and nothing else, so that the kernel can answer with an error
// the client matches to its request.
type HeaderTooLargeError struct {
	Size int // bytes in the header frame
}

func (e *HeaderTooLargeError) Error() string {
	return fmt.Sprintf("the request's header is %.1f MiB; the kernel answers requests whose header is at most %d KiB "+
		"(every message about a request repeats its header): send a shorter header (a header field holds a large value)",
		float64(e.Size)/(1<<20), MaxHeader>>10)
}

// Decode parses the frames of one message and verifies its signature with
// key (no verification when key is empty). It returns a *SignatureError for
// a bad or missing signature and a *FormatError for malformed frames; a
// header over MaxHeader gives a *HeaderTooLargeError and a Message with the
// header's identifying fields only.
func Decode(frames [][]byte, key []byte) (*Message, error) {
	delim := -1
	for i, f := range frames {
		if string(f) == Delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, &FormatError{Part: "delimiter", Err: errors.New("no <IDS|MSG> frame")}
	}
	rest := frames[delim+1:]
	if len(rest) < 5 {
		return nil, &FormatError{Part: "frames", Err: fmt.Errorf("%d frames after the delimiter, want at least 5", len(rest))}
	}
	sig, parts := rest[0], rest[1:5]
	if len(key) > 0 {
		if err := verify(sig, parts, key); err != nil {
			return nil, err
		}
	}
	m := &Message{}
	if delim > 0 {
		m.Identities = copyFrames(frames[:delim])
	}
	if len(parts[0]) > MaxHeader {
		// Decoded into the identifying fields only: other fields (a big
		// username, fields of no use here) are scanned, not copied.
		var h struct {
			MsgID   string `json:"msg_id"`
			Session string `json:"session"`
			MsgType string `json:"msg_type"`
			Version string `json:"version"`
			Date    string `json:"date"`
		}
		if err := decodeObject(parts[0], "header", &h); err != nil {
			return nil, err
		}
		m.Header = Header{MsgID: h.MsgID, Session: h.Session, MsgType: h.MsgType, Version: h.Version, Date: h.Date}
		for _, f := range []*string{&m.Header.MsgID, &m.Header.Session, &m.Header.MsgType, &m.Header.Version, &m.Header.Date} {
			if len(*f) > maxHeaderField {
				*f = ""
			}
		}
		return m, &HeaderTooLargeError{Size: len(parts[0])}
	}
	if err := decodeObject(parts[0], "header", &m.Header); err != nil {
		return nil, err
	}
	if err := decodeObject(parts[1], "parent_header", &m.ParentHeader); err != nil {
		return nil, err
	}
	if err := decodeObject(parts[2], "metadata", &m.Metadata); err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if err := decodeObject(parts[3], "content", &probe); err != nil {
		return nil, err
	}
	m.Content = append(json.RawMessage(nil), parts[3]...)
	if len(rest) > 5 {
		m.Buffers = copyFrames(rest[5:])
	}
	return m, nil
}

func verify(sig []byte, parts [][]byte, key []byte) error {
	if len(sig) == 0 {
		return &SignatureError{Missing: true}
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil {
		return &SignatureError{}
	}
	if !hmac.Equal(got, sign(parts, key)) {
		return &SignatureError{}
	}
	return nil
}

func sign(parts [][]byte, key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	for _, p := range parts {
		mac.Write(p)
	}
	return mac.Sum(nil)
}

// decodeObject unmarshals a frame that must hold a JSON object.
func decodeObject(b []byte, part string, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return &FormatError{Part: part, Err: errors.New("not a JSON object")}
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &FormatError{Part: part, Err: err}
	}
	return nil
}

func copyFrames(fs [][]byte) [][]byte {
	out := make([][]byte, len(fs))
	for i, f := range fs {
		out[i] = append([]byte(nil), f...)
	}
	return out
}

// Encode returns the frames of msg, signed with key (an empty signature
// when key is empty). A zero ParentHeader, nil Metadata and nil Content
// encode as {}.
func Encode(msg *Message, key []byte) ([][]byte, error) {
	header, err := json.Marshal(msg.Header)
	if err != nil {
		return nil, fmt.Errorf("wire: encoding header: %w", err)
	}
	parent := []byte("{}")
	if !msg.ParentHeader.IsZero() {
		if parent, err = json.Marshal(msg.ParentHeader); err != nil {
			return nil, fmt.Errorf("wire: encoding parent_header: %w", err)
		}
	}
	meta := []byte("{}")
	if msg.Metadata != nil {
		if meta, err = json.Marshal(msg.Metadata); err != nil {
			return nil, fmt.Errorf("wire: encoding metadata: %w", err)
		}
	}
	content := []byte("{}")
	if len(msg.Content) > 0 {
		content = msg.Content
	}
	parts := [][]byte{header, parent, meta, content}
	var sig []byte
	if len(key) > 0 {
		raw := sign(parts, key)
		sig = make([]byte, hex.EncodedLen(len(raw)))
		hex.Encode(sig, raw)
	}
	frames := make([][]byte, 0, len(msg.Identities)+6+len(msg.Buffers))
	frames = append(frames, msg.Identities...)
	frames = append(frames, []byte(Delimiter), sig)
	frames = append(frames, parts...)
	frames = append(frames, msg.Buffers...)
	return frames, nil
}
