//go:build unix && !linux

package job

import "os/exec"

// cgroup: there are none outside Linux.
type cgroup struct{}

func jobCgroups(mk func() *exec.Cmd) ([]*cgroup, func() *exec.Cmd) { return nil, mk }
func (*cgroup) kill([]int)                                         {}
func (*cgroup) release()                                           {}

// members cannot be listed without /proc: the process group answers
// whether any is left (Job.Alive).
func (j *Job) members() ([]int, bool) { return nil, false }
