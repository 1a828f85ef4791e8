package supervisor

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// engineDeathSignal makes the kernel kill the engine when the supervisor
// dies, however it dies (the engine also exits when its input pipe
// closes, which is what other systems rely on).
func engineDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// memoryUse returns the process's resident memory plus its swap, in bytes.
func memoryUse(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	var total int64
	found := false
	for _, key := range [][]byte{[]byte("VmRSS:"), []byte("VmSwap:")} {
		i := bytes.Index(b, key)
		if i < 0 {
			continue
		}
		rest := b[i+len(key):]
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[:j]
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
		if err == nil {
			total += kb << 10
			found = true
		}
	}
	return total, found
}
