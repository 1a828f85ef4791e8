//go:build !unix

package session

import "errors"

// fileStream is not available here: os.Stdout and os.Stderr in cell code
// are io.Writers routed to the cell (stdio_unix.go has the pipes).
type fileStream struct{}

func (s *Session) newFileStream(string) (*fileStream, error) {
	return nil, errors.New("session: no pipe-backed standard streams on this platform")
}

func drainStreams([]*fileStream) {}

func (f *fileStream) file() any { return nil }
