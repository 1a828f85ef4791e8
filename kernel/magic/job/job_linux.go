package job

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tick-kernel/tick/internal/memlimit"
)

// CgroupEnv set to "off" keeps `!` commands out of cgroups (their
// process group still holds them).
const CgroupEnv = "TICK_SHELL_CGROUP"

// pidsReserve is the room a command's pids limit leaves the kernel in a
// pids-limited cgroup: the supervisor's and the engine's threads count
// there too, and a Go program that cannot make a thread aborts. A fork
// bomb in a cell used to take the kernel with it.
const pidsReserve = 64

// A cgroup made for one command, in the engine's own cgroup where that is
// writable (root, or a delegated cgroup).
//
//   - v2: the command starts in it (clone into the cgroup, Linux 5.7): it
//     lists every process the command makes, even one that leaves the
//     process group, and cgroup.kill (Linux 5.14) ends them all at once.
//     Where its pids controller is enabled and a pids limit applies, it
//     gets its own limit, below the kernel's.
//   - v1 pids: when a v1 pids limit applies (and no v2 pids controller),
//     a child of the engine's pids cgroup with a limit below it; the shell
//     moves itself in before it runs the command.
type cgroup struct {
	dir       string
	fd        *os.File // v2: for clone into the cgroup
	pidsLimit bool     // it has a pids limit of its own
}

var cgroupSeq atomic.Int64

// jobCgroups makes the cgroups of one command and returns them with the
// command to start (mk's, moved into them).
func jobCgroups(mk func() *exec.Cmd) ([]*cgroup, func() *exec.Cmd) {
	if os.Getenv(CgroupEnv) == "off" {
		return nil, mk
	}
	host := memlimit.Host()
	name := fmt.Sprintf("tick-shell-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	sweepOnce.Do(func() { sweep(host) })
	var cgs []*cgroup
	var v2 *cgroup
	if parent, top, ok := host.Dir(""); ok && writable(parent) {
		if dir := filepath.Join(parent, name); os.Mkdir(dir, 0o755) == nil {
			if fd, err := os.Open(dir); err == nil {
				v2 = &cgroup{dir: dir, fd: fd}
				cgs = append(cgs, v2)
				if room, ok := pidsRoom(parent, top); ok && hasController(dir, "pids") {
					v2.pidsLimit = os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.FormatInt(room, 10)), 0) == nil
				}
			} else {
				os.Remove(dir)
			}
		}
	}
	var v1 *cgroup
	if v2 == nil || !v2.pidsLimit {
		if parent, top, ok := host.Dir("pids"); ok && writable(parent) {
			if room, ok := pidsRoom(parent, top); ok {
				dir := filepath.Join(parent, name)
				if os.Mkdir(dir, 0o755) == nil {
					if os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.FormatInt(room, 10)), 0) == nil {
						v1 = &cgroup{dir: dir}
						cgs = append(cgs, v1)
					} else {
						os.Remove(dir)
					}
				}
			}
		}
	}
	return cgs, func() *exec.Cmd {
		cmd := mk()
		if v2 != nil {
			cmd.SysProcAttr.UseCgroupFD = true
			cmd.SysProcAttr.CgroupFD = int(v2.fd.Fd())
		}
		if v1 != nil {
			// The shell enters the cgroup before it runs the line: nothing
			// it starts is outside it.
			line := cmd.Args[len(cmd.Args)-1]
			cmd.Args = []string{"/bin/sh", "-c", `echo $$ > "$0/cgroup.procs" 2>/dev/null; exec /bin/sh -c "$1"`, v1.dir, line}
		}
		return cmd
	}
}

var sweepOnce sync.Once

// sweep removes the empty cgroups of commands of engines that are gone
// (killed before they could remove them): tick-shell-PID-N where no
// process PID runs.
func sweep(host memlimit.System) {
	for _, h := range []string{"", "pids"} {
		parent, _, ok := host.Dir(h)
		if !ok {
			continue
		}
		dirs, _ := filepath.Glob(filepath.Join(parent, "tick-shell-*-*"))
		for _, d := range dirs {
			f := strings.Split(filepath.Base(d), "-")
			if pid, err := strconv.Atoi(f[2]); err == nil && unix.Kill(pid, 0) == unix.ESRCH {
				os.Remove(d) // fails, harmlessly, while processes are in it
			}
		}
	}
}

func writable(dir string) bool {
	return unix.Access(filepath.Join(dir, "cgroup.procs"), unix.W_OK) == nil
}

func hasController(dir, name string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	return err == nil && contains(strings.Fields(string(b)), name)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// pidsRoom is the pids limit for a command: the tightest room left under
// the pids.max of dir and its ancestors up to top, less pidsReserve (at
// least 8); ok is false when no pids limit applies.
func pidsRoom(dir, top string) (int64, bool) {
	best, found := int64(0), false
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "pids.max")); err == nil {
			if max, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
				cur := int64(0)
				if c, err := os.ReadFile(filepath.Join(d, "pids.current")); err == nil {
					cur, _ = strconv.ParseInt(strings.TrimSpace(string(c)), 10, 64)
				}
				if room := max - cur; !found || room < best {
					best, found = room, true
				}
			}
		}
		if d == top || d == "/" || d == "." {
			break
		}
	}
	if !found {
		return 0, false
	}
	return max(best-pidsReserve, 8), true
}

// pids lists the cgroup's processes.
func (c *cgroup) pids() []int {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range bytes.Fields(b) {
		if pid, err := strconv.Atoi(string(f)); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// kill ends the cgroup's processes: cgroup.kill where the kernel has it
// (v2), else each process listed.
func (c *cgroup) kill(pids []int) {
	if c.fd != nil && os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0) == nil {
		return
	}
	for _, pid := range append(pids, c.pids()...) {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}

// release removes the cgroup once its processes are gone.
func (c *cgroup) release() {
	if c.fd != nil {
		c.fd.Close()
	}
	for i := 0; i < 50; i++ {
		if err := os.Remove(c.dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// members lists the job's running processes: those of its process group
// and of its cgroups, finished ones (zombies) aside.
func (j *Job) members() ([]int, bool) {
	seen := map[int]bool{}
	var out []int
	add := func(pid int) {
		if !seen[pid] {
			seen[pid] = true
			out = append(out, pid)
		}
	}
	for _, cg := range j.cgs {
		for _, pid := range cg.pids() {
			if state, _, ok := procStat(pid); ok && state != 'Z' {
				add(pid)
			}
		}
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out, len(j.cgs) > 0
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, pgrp, ok := procStat(pid); ok && pgrp == j.pgid && state != 'Z' {
			add(pid)
		}
	}
	return out, true
}

// procStat reads a process's state and process group from /proc.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) == 0 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(string(f[2]))
	return f[0][0], pgrp, err == nil
}
