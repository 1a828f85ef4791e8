//go:build !unix

package stdio

import "errors"

// fileStream is not available here: os.Stdout and os.Stderr in cell code
// are io.Writers routed to the cell (stdio_unix.go has the pipes).
type fileStream struct{}

func (r *Router) newFileStream(string) (*fileStream, error) {
	return nil, errors.New("stdio: no pipe-backed standard streams on this platform")
}

func drainStreams([]*fileStream) {}

func (f *fileStream) file() any { return nil }

func (f *fileStream) routeProcess() bool { return false }
