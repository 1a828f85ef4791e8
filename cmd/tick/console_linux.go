package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// consoleTerm is the terminal of the console that started the kernel.
type consoleTerm struct {
	fd     int // the kernel's stderr, a descriptor of that terminal
	parent int
}

// findConsoleTerm returns the console's terminal when the kernel's parent
// (JPY_PARENT_PID) is jupyter console and the kernel's stderr is its
// controlling terminal, nil otherwise.
func findConsoleTerm() *consoleTerm {
	pid, err := strconv.Atoi(os.Getenv(parentEnv))
	if err != nil || pid <= 1 || pid != os.Getppid() {
		return nil
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || !isJupyterConsole(cmdline) {
		return nil
	}
	const fd = 2
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return nil // not a terminal
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil
	}
	ttyNr, _, _, ok := procTTY(pid)
	if !ok || uint64(ttyNr) != st.Rdev {
		return nil
	}
	return &consoleTerm{fd: fd, parent: pid}
}

// prompting reports whether the console is reading a line from its
// terminal: it is in the terminal's foreground, and the terminal is in
// raw mode.
func (t *consoleTerm) prompting() bool {
	tio, err := unix.IoctlGetTermios(t.fd, unix.TCGETS)
	if err != nil || tio.Lflag&(unix.ICANON|unix.ISIG) != 0 {
		return false
	}
	_, pgrp, tpgid, ok := procTTY(t.parent)
	return ok && pgrp == tpgid
}

// procTTY reads a process's controlling terminal, process group and the
// terminal's foreground process group from /proc/PID/stat.
func procTTY(pid int) (ttyNr, pgrp, tpgid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	// state ppid pgrp session tty_nr tpgid ...
	f := bytes.Fields(b[i+1:])
	if len(f) < 6 {
		return 0, 0, 0, false
	}
	pgrp, _ = strconv.Atoi(string(f[2]))
	ttyNr, _ = strconv.Atoi(string(f[4]))
	tpgid, _ = strconv.Atoi(string(f[5]))
	return ttyNr, pgrp, tpgid, true
}

// isJupyterConsole reports whether a /proc/PID/cmdline (NUL-separated) is
// jupyter console's: `jupyter console` execs jupyter-console, run as a
// script by its interpreter or as `python -m jupyter_console`. Only the
// first three words are looked at (interpreter, -m or script, name), so an
// argument that merely mentions it does not count.
func isJupyterConsole(cmdline []byte) bool {
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	for i, a := range args {
		if i == 3 {
			break
		}
		switch filepath.Base(string(a)) {
		case "jupyter-console", "jupyter_console":
			return true
		}
	}
	return false
}
