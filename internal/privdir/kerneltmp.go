package privdir

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// A kernel's private temporary directory ($TICK_KERNEL_TMP) is named
// os.TempDir()/tick-kernel-PID-RANDOM and made only when something needs
// it (Private). The kernel removes it when it ends; a kernel killed before
// it could (SIGKILL: jupyter_client's shutdown_kernel(now=True), an OOM
// kill) leaves it, and the next kernel of the same user removes it
// (SweepKernelTemps), as the PID in its name is no longer running.

// kernelTempName matches the directories KernelTemp names and those
// Private makes outside a kernel's directory (tick-graphviz-PID-N,
// tick-kernels-PID-N); the PID is the first group. oldKernelTemp is what
// earlier versions made at start-up (os.MkdirTemp: no PID).
var (
	kernelTempName = regexp.MustCompile(`^tick-(?:kernel|kernels|graphviz)-([0-9]+)-[0-9a-f]+$`)
	oldKernelTemp  = regexp.MustCompile(`^tick-kernel-[0-9]+$`)
)

// KernelTemp returns the path of the private temporary directory of the
// kernel whose process is pid, without making it. The random part keeps
// another user from guessing the name and making it first (Private
// refuses a directory that is not the user's anyway).
func KernelTemp(pid int) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return filepath.Join(os.TempDir(), "tick-kernel-"+strconv.Itoa(pid)+"-"+hex.EncodeToString(b[:])), nil
}

// SweepKernelTemps removes the temporary directories of this user's
// kernels and tick processes that are no longer running (their PID names
// no process), and empty ones of earlier versions; it returns how many it
// removed.
// Directories of other users, and of a PID that is running (even when it
// is another program now), are left alone.
func SweepKernelTemps() int {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		if !e.IsDir() || !ownedByMe(path) {
			continue
		}
		if m := kernelTempName.FindStringSubmatch(name); m != nil {
			pid, err := strconv.Atoi(m[1])
			if err == nil && pid != os.Getpid() && !processRunning(pid) && os.RemoveAll(path) == nil {
				n++
			}
		} else if oldKernelTemp.MatchString(name) && os.Remove(path) == nil { // only when empty
			n++
		}
	}
	return n
}
