//go:build unix

package job

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// Command runs line with /bin/sh in its own process group, so that an
// interrupt can kill the command and everything it started.
func Command(line string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Job is a command's processes: its process group, and on Linux the
// cgroups made for it (job_linux.go): one that lists every process it
// makes, even those that leave the group (setsid), and one under a pids
// limit the kernel is in, whose own limit keeps room for the kernel.
type Job struct {
	pgid int
	cgs  []*cgroup
}

// endTimeout bounds how long an interrupt keeps killing a job that keeps
// making processes.
const endTimeout = 5 * time.Second

// Start starts the command mk makes, in cgroups of its own when they
// can be made (else, or when starting it there fails, without).
func Start(mk func() *exec.Cmd) (*Job, *exec.Cmd, error) {
	if cgs, mkIn := jobCgroups(mk); len(cgs) > 0 {
		cmd := mkIn()
		if err := cmd.Start(); err == nil {
			return &Job{pgid: cmd.Process.Pid, cgs: cgs}, cmd, nil
		}
		for _, cg := range cgs {
			cg.release()
		}
	}
	cmd := mk()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return &Job{pgid: cmd.Process.Pid}, cmd, nil
}

// Alive returns how many of the job's processes are running (the
// finished ones not yet reaped aside).
func (j *Job) Alive() int {
	pids, ok := j.members()
	if !ok {
		if syscall.Kill(-j.pgid, 0) == nil {
			return 1 // there are some: how many is not known here
		}
		return 0
	}
	return len(pids)
}

// End kills the job until it is empty (or endTimeout passes); it returns
// how many processes it ended and how many are left.
func (j *Job) End() (ended, left int) {
	killed := map[int]bool{}
	deadline := time.Now().Add(endTimeout)
	for {
		pids, listed := j.members()
		for _, pid := range pids {
			killed[pid] = true
		}
		if listed && len(pids) == 0 {
			return len(killed), 0
		}
		err := syscall.Kill(-j.pgid, syscall.SIGKILL)
		for _, cg := range j.cgs {
			cg.kill(pids)
		}
		if !listed && errors.Is(err, syscall.ESRCH) {
			return len(killed), 0
		}
		if time.Now().After(deadline) {
			return len(killed), len(pids)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Release removes the job's cgroups.
func (j *Job) Release() {
	for _, cg := range j.cgs {
		cg.release()
	}
}
