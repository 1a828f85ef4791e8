//go:build !unix

package job

import "os/exec"

// Command runs line with cmd.exe (Windows) or sh elsewhere.
func Command(line string) *exec.Cmd {
	if _, err := exec.LookPath("cmd"); err == nil {
		return exec.Command("cmd", "/C", line)
	}
	return exec.Command("sh", "-c", line)
}

// Job is the command's process: without process groups, programs it
// started may live on after it.
type Job struct{ cmd *exec.Cmd }

func Start(mk func() *exec.Cmd) (*Job, *exec.Cmd, error) {
	cmd := mk()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return &Job{cmd: cmd}, cmd, nil
}

// Alive: the shell's exit ends the job here.
func (j *Job) Alive() int { return 0 }

func (j *Job) End() (ended, left int) {
	if j.cmd.Process.Kill() == nil {
		return 1, 0
	}
	return 0, 0
}

func (j *Job) Release() {}
