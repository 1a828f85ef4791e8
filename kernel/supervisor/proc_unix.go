//go:build unix

package supervisor

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the engine in a process group of its own: a SIGINT
// that Jupyter sends the kernel's group (interrupt_mode "signal") reaches
// the supervisor only, which forwards it once; killing the group ends the
// engine and what it started. On Linux the engine also dies with the
// supervisor (engineDeathSignal).
func setProcAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	engineDeathSignal(cmd.SysProcAttr)
}

// killGroup kills the engine's process group (the engine and the
// processes it started that stayed in its group).
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
