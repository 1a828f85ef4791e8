//go:build !unix

package magic

import "os/exec"

// shellCommand runs line with cmd.exe (Windows) or sh elsewhere.
func shellCommand(line string) *exec.Cmd {
	if _, err := exec.LookPath("cmd"); err == nil {
		return exec.Command("cmd", "/C", line)
	}
	return exec.Command("sh", "-c", line)
}

// killTree kills the command; without process groups, programs it started
// may live on.
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
