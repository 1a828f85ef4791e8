//go:build unix

package notebook

import (
	"os"
	"sync"
	"syscall"
)

var umaskMu sync.Mutex

// umask returns the process's file mode creation mask. Reading it means
// setting it, so the read is serialised and the mask restored at once.
func umask() os.FileMode {
	umaskMu.Lock()
	defer umaskMu.Unlock()
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return os.FileMode(m)
}
