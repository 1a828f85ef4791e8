//go:build !unix

package supervisor

import (
	"os"
	"os/exec"
)

func setProcAttr(*exec.Cmd) {}

// killGroup kills the engine (Windows has no process groups to kill).
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
