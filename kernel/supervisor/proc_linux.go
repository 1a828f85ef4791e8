package supervisor

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/tick-kernel/tick/internal/memlimit"
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

// endShellJobs ends what an engine's `!` commands left (kernel/magic
// runs each in cgroups named tick-shell-PID-N, PID the engine's): when the
// engine is gone, nothing started from it is left running.
func endShellJobs(enginePid int) {
	host := memlimit.Host()
	for _, h := range []string{"", "pids"} {
		parent, _, ok := host.Dir(h)
		if !ok {
			continue
		}
		dirs, _ := filepath.Glob(filepath.Join(parent, "tick-shell-"+strconv.Itoa(enginePid)+"-*"))
		for _, d := range dirs {
			for i := 0; i < 100; i++ {
				procs, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
				if err != nil || len(bytes.TrimSpace(procs)) == 0 {
					break
				}
				if os.WriteFile(filepath.Join(d, "cgroup.kill"), []byte("1"), 0) != nil {
					for _, f := range bytes.Fields(procs) {
						if pid, err := strconv.Atoi(string(f)); err == nil {
							_ = syscall.Kill(pid, syscall.SIGKILL)
						}
					}
				}
				time.Sleep(10 * time.Millisecond)
			}
			os.Remove(d)
		}
	}
}
