package wire

import (
	"bytes"
	"testing"
)

// FuzzDecode feeds arbitrary frames (split at a 0xFF byte) to Decode: it must
// never panic, and whatever it accepts must re-encode and decode to the same
// header.
func FuzzDecode(f *testing.F) {
	for _, key := range [][]byte{nil, testKey} {
		frames, err := Encode(sample(), key)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytes.Join(frames, []byte{0xFF}), len(key) > 0)
	}
	f.Add([]byte("<IDS|MSG>\xff\xff{}\xff{}\xff{}\xff{}"), false)
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		var key []byte
		if signed {
			key = testKey
		}
		frames := bytes.Split(data, []byte{0xFF})
		m, err := Decode(frames, key)
		if err != nil {
			return
		}
		out, err := Encode(m, key)
		if err != nil {
			t.Fatalf("Encode after Decode: %v", err)
		}
		m2, err := Decode(out, key)
		if err != nil {
			t.Fatalf("Decode of re-encoded message: %v", err)
		}
		if m2.Header != m.Header {
			t.Fatalf("header changed: %+v -> %+v", m.Header, m2.Header)
		}
	})
}
