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

// job is the command's process: without process groups, programs it
// started may live on after it.
type job struct{ cmd *exec.Cmd }

func startJob(mk func() *exec.Cmd) (*job, *exec.Cmd, error) {
	cmd := mk()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return &job{cmd: cmd}, cmd, nil
}

// alive: the shell's exit ends the job here.
func (j *job) alive() int { return 0 }

func (j *job) end() (ended, left int) {
	if j.cmd.Process.Kill() == nil {
		return 1, 0
	}
	return 0, 0
}

func (j *job) release() {}
