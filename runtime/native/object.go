package native

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// A cached object is the compiler's shared object followed by a trailer:
//
//	magic "TICKSO01" | payload length (uint64 LE) | SHA-256 of the payload
//
// The dynamic loader ignores bytes after the ELF image, so the file is loaded
// as is; the trailer lets a truncated or overwritten entry be detected before
// dlopen maps it (mapping a truncated file can fault on first touch).
const (
	trailerMagic = "TICKSO01"
	trailerSize  = len(trailerMagic) + 8 + sha256.Size
	maxObject    = 256 << 20 // refuse to hash absurd files; treat as corrupt
)

type objectState int

const (
	objectMissing objectState = iota
	objectOK
	objectBad // present but truncated, corrupted or unreadable
)

// sealObject appends the checksum trailer to the object at path.
func sealObject(path string) error {
	payload, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, werr := f.Write(trailer(payload))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

func trailer(payload []byte) []byte {
	t := make([]byte, 0, trailerSize)
	t = append(t, trailerMagic...)
	t = binary.LittleEndian.AppendUint64(t, uint64(len(payload)))
	sum := sha256.Sum256(payload)
	return append(t, sum[:]...)
}

// verifyObject checks the trailer of the cached object at path.
func verifyObject(path string) objectState {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return objectMissing
	}
	if err != nil || !info.Mode().IsRegular() || info.Size() <= int64(trailerSize) || info.Size() > maxObject {
		return objectBad
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) <= trailerSize {
		return objectBad
	}
	payload := data[:len(data)-trailerSize]
	if !bytes.Equal(data[len(payload):], trailer(payload)) {
		return objectBad
	}
	return objectOK
}

// WriteSealed writes data to dir/name followed by the cache's checksum
// trailer, through a temporary file renamed into place, so a reader never
// sees a partial entry.
func WriteSealed(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	_, werr := f.Write(append(append([]byte(nil), data...), trailer(data)...))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

// ReadSealed returns the payload of an entry WriteSealed wrote, and false
// when it is missing, truncated or corrupt (the caller rebuilds it).
func ReadSealed(path string) ([]byte, bool) {
	if verifyObject(path) != objectOK {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) <= trailerSize {
		return nil, false
	}
	payload := data[:len(data)-trailerSize]
	if !bytes.Equal(data[len(payload):], trailer(payload)) { // changed since verified
		return nil, false
	}
	return payload, true
}
