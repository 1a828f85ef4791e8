//go:build unix

package stdio

import (
	"errors"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// os.Stdout and os.Stderr in cell code are real *os.File values, as in Go
// (os.Stdout.WriteString, *os.File parameters, `out := os.Stdout; out =
// f` all compile): the write end of a pipe per stream, which the session
// reads and routes to the running cell like fmt's output. Order is kept
// because every read of a pipe, by its watcher or by a drain, runs under
// the stream's lock, and the session drains both pipes before it routes
// any other output (fmt's prints, displays) and when a cell ends: text a
// cell writes to os.Stdout and then prints with fmt arrives in that order.

// fileStream is one of the two pipes.
type fileStream struct {
	r    *Router
	name string // "stdout" or "stderr"

	mu  sync.Mutex // held for each read of pr and the routing of what it read
	pr  *os.File
	pw  *os.File
	fd  int // pr's descriptor (pr stays open for the session's life)
	buf []byte
}

// newFileStream opens the pipe and starts its watcher. A session without
// one (the pipe could not be made) binds the stream as an io.Writer.
func (r *Router) newFileStream(name string) (*fileStream, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	f := &fileStream{r: r, name: name, pr: pr, pw: pw, buf: make([]byte, 64<<10)}
	raw, err := pr.SyscallConn()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	_ = raw.Control(func(fd uintptr) { f.fd = int(fd) })
	go func() {
		// Read's func runs whenever the pipe is readable; returning false
		// waits for the next write. It returns an error when r is closed.
		_ = raw.Read(func(fd uintptr) bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.readLocked(fd)
		})
	}()
	return f, nil
}

// readLocked routes what the pipe holds now; it reports whether the pipe
// is finished (every write end closed).
func (f *fileStream) readLocked(fd uintptr) (eof bool) {
	for {
		n, err := syscall.Read(int(fd), f.buf)
		if n > 0 {
			f.r.Emit(f.name, string(f.buf[:n]))
			continue
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return n == 0 && err == nil
	}
}

// drainStreams routes what the pipes hold now, before other output. One
// poll asks whether either holds anything (a print pays for that one call
// when nothing was written to os.Stdout); only then does it read.
func drainStreams(fs []*fileStream) {
	var polls [2]unix.PollFd
	n := 0
	for _, f := range fs {
		if n < len(polls) {
			polls[n] = unix.PollFd{Fd: int32(f.fd), Events: unix.POLLIN}
			n++
		}
	}
	if n == 0 {
		return
	}
	for {
		if _, err := unix.Poll(polls[:n], 0); err != unix.EINTR {
			break
		}
	}
	for i, f := range fs[:n] {
		// The lock also waits for the watcher, which may have read the
		// last write already and be routing it.
		f.mu.Lock()
		if polls[i].Revents&unix.POLLIN != 0 {
			f.readLocked(uintptr(f.fd))
		}
		f.mu.Unlock()
	}
}

// file returns the *os.File cell code sees.
func (f *fileStream) file() any { return f.pw }

// routeProcess makes the process's stdout (fd 1) a write end of the
// stdout pipe, or os.Stderr the stderr pipe's (Options.ProcessStreams);
// it reports whether it did.
func (f *fileStream) routeProcess() bool {
	if f.name == "stderr" {
		os.Stderr = f.pw
		return true
	}
	raw, err := f.pw.SyscallConn() // not Fd(): it would make the pipe blocking
	if err != nil {
		return false
	}
	ok := false
	_ = raw.Control(func(fd uintptr) { ok = unix.Dup2(int(fd), 1) == nil })
	return ok
}
