package zmtp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// ZMTP 3.0 framing (rfc.zeromq.org/spec/23): a frame is a flags byte
// (bit 0 MORE, bit 1 LONG, bit 2 COMMAND), a size (1 byte, or 8 bytes
// big-endian when LONG) and the body.
const (
	flagMore    = 0x1
	flagLong    = 0x2
	flagCommand = 0x4

	greetingLen = 64
	// maxCommand bounds one command frame (READY, SUBSCRIBE, PING, ...).
	maxCommand = 1 << 20
	// frameOverhead is what one frame costs zmq4 beyond its body (a slice
	// header and bookkeeping), counted toward MaxMessage so a message of
	// millions of empty frames is bounded too.
	frameOverhead = 64
)

// ErrTooLarge is the error a Scanner returns for a frame, message or
// command over its limit.
var ErrTooLarge = errors.New("zmtp: frame too large")

// SizeError says which limit a peer's frame header broke.
type SizeError struct {
	What  string // "frame", "message", "command"
	Size  uint64 // the announced size (for a message: the sum so far)
	Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("zmtp: peer announced a %s of %d bytes, over the limit of %d bytes (TICK_MAX_MESSAGE raises it)",
		e.What, e.Size, e.Limit)
}

// Unwrap makes errors.Is(err, ErrTooLarge) true.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

type scanState uint8

const (
	stFlags scanState = iota
	stShortSize
	stLongSize
	stBody
)

// Scanner follows ZMTP frames in a byte stream (after the greeting) and
// checks each announced size against the limits as soon as the header's
// last byte is seen: before a reader that trusts the header allocates.
// It never buffers: memory is constant whatever the input.
type Scanner struct {
	MaxMessage int64

	state   scanState
	flags   byte
	sizeBuf [8]byte
	sizeN   int
	remain  uint64 // body bytes left in the current frame
	message uint64 // bytes of the current multipart message so far
	frames  uint64 // complete frames seen
}

// Frames returns the number of complete frames seen.
func (s *Scanner) Frames() uint64 { return s.frames }

// Feed scans the next bytes of the stream. After an error the stream is
// unusable: the connection must be closed.
func (s *Scanner) Feed(p []byte) error {
	for len(p) > 0 {
		switch s.state {
		case stFlags:
			s.flags = p[0]
			p = p[1:]
			s.sizeN = 0
			if s.flags&flagLong != 0 {
				s.state = stLongSize
			} else {
				s.state = stShortSize
			}
		case stShortSize:
			size := uint64(p[0])
			p = p[1:]
			if err := s.begin(size); err != nil {
				return err
			}
		case stLongSize:
			n := copy(s.sizeBuf[s.sizeN:], p)
			s.sizeN += n
			p = p[n:]
			if s.sizeN == 8 {
				if err := s.begin(binary.BigEndian.Uint64(s.sizeBuf[:])); err != nil {
					return err
				}
			}
		case stBody:
			n := uint64(len(p))
			if n > s.remain {
				n = s.remain
			}
			s.remain -= n
			p = p[n:]
			if s.remain == 0 {
				s.end()
			}
		}
	}
	return nil
}

// begin checks a frame's announced size.
func (s *Scanner) begin(size uint64) error {
	limit := s.MaxMessage
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	if s.flags&flagCommand != 0 {
		if size > maxCommand {
			return &SizeError{What: "command", Size: size, Limit: maxCommand}
		}
	} else {
		if size > uint64(limit) {
			return &SizeError{What: "frame", Size: size, Limit: limit}
		}
		s.message += size + frameOverhead
		if s.message > uint64(limit) {
			return &SizeError{What: "message", Size: s.message, Limit: limit}
		}
	}
	s.remain = size
	s.state = stBody
	if size == 0 {
		s.end()
	}
	return nil
}

func (s *Scanner) end() {
	s.frames++
	if s.flags&flagCommand != 0 || s.flags&flagMore == 0 {
		s.message = 0
	}
	s.state = stFlags
}

// greeting is the 64-byte ZMTP 3.0 greeting zmq4 sends: signature,
// version 3.0, mechanism NULL, as-server 0, filler.
func greeting() []byte {
	g := make([]byte, greetingLen)
	g[0], g[9] = 0xff, 0x7f
	g[10], g[11] = 3, 0
	copy(g[12:32], "NULL")
	return g
}

// checkGreeting reports whether g starts like a ZMTP 3.x greeting.
func checkGreeting(g []byte) error {
	if len(g) < greetingLen || g[0] != 0xff || g[9] != 0x7f {
		return errors.New("zmtp: peer's greeting has no ZMTP signature (not a ZeroMQ peer?)")
	}
	if g[10] < 3 {
		return fmt.Errorf("zmtp: peer speaks ZMTP %d.%d; tick needs 3.0 or later", g[10], g[11])
	}
	return nil
}

// commandIdentity returns the Identity property of a READY command body
// (name length, name, then properties: key length, key, 4-byte value
// length, value), or "" when there is none or the command is not READY.
func commandIdentity(body []byte) string {
	if len(body) == 0 || int(body[0]) > len(body)-1 {
		return ""
	}
	name := string(body[1 : 1+body[0]])
	if name != "READY" {
		return ""
	}
	p := body[1+body[0]:]
	for len(p) > 0 {
		kl := int(p[0])
		if 1+kl+4 > len(p) {
			return ""
		}
		key := p[1 : 1+kl]
		vl := binary.BigEndian.Uint32(p[1+kl:])
		p = p[1+kl+4:]
		if uint64(vl) > uint64(len(p)) {
			return ""
		}
		if strings.EqualFold(string(key), "Identity") {
			return string(bytes.Clone(p[:vl]))
		}
		p = p[vl:]
	}
	return ""
}

// withIdentity returns a READY command body with its Identity property's
// value replaced by id; false when body is not a READY with an identity.
func withIdentity(body []byte, id string) ([]byte, bool) {
	if len(body) == 0 || int(body[0]) > len(body)-1 || string(body[1:1+body[0]]) != "READY" {
		return nil, false
	}
	out := append([]byte(nil), body[:1+body[0]]...)
	p := body[1+body[0]:]
	found := false
	for len(p) > 0 {
		kl := int(p[0])
		if 1+kl+4 > len(p) {
			return nil, false
		}
		key := p[1 : 1+kl]
		vl := binary.BigEndian.Uint32(p[1+kl:])
		if uint64(vl) > uint64(len(p)-1-kl-4) {
			return nil, false
		}
		val := p[1+kl+4 : 1+kl+4+int(vl)]
		if strings.EqualFold(string(key), "Identity") {
			val, found = []byte(id), true
		}
		out = append(out, byte(kl))
		out = append(out, key...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(val)))
		out = append(out, val...)
		p = p[1+kl+4+int(vl):]
	}
	return out, found
}

// commandFrame encodes body as one ZMTP command frame.
func commandFrame(body []byte) []byte {
	if len(body) > 255 {
		return append(binary.BigEndian.AppendUint64([]byte{flagCommand | flagLong}, uint64(len(body))), body...)
	}
	return append([]byte{flagCommand, byte(len(body))}, body...)
}
