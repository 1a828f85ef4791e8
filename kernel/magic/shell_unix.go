//go:build unix

package magic

import (
	"os/exec"
	"syscall"
)

// shellCommand runs line with /bin/sh in its own process group, so that an
// interrupt can kill the command and everything it started.
func shellCommand(line string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// killTree kills the command's process group.
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
