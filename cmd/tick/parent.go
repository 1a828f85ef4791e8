package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// parentEnv is the variable jupyter_client sets to the pid of the process
// that started the kernel (unless it starts it "independent").
const parentEnv = "JPY_PARENT_PID"

// parentPoll is how often the kernel looks for its parent: a kernel whose
// front end died exits within two of these and the shutdown.
const parentPoll = time.Second

// watchParent calls gone once the process that started the kernel has
// ended, as ipykernel's ParentPollerUnix does: when JPY_PARENT_PID names
// a process (not init), the kernel exits when it was reparented (its
// parent died) or that process no longer exists. A kernel started by hand
// (no JPY_PARENT_PID) is not watched.
func watchParent(gone func(why string)) {
	pid, err := strconv.Atoi(os.Getenv(parentEnv))
	if err != nil || pid <= 1 {
		return
	}
	ppid := os.Getppid()
	go func() {
		for range time.Tick(parentPoll) {
			if now := os.Getppid(); now != ppid {
				gone(fmt.Sprintf("its parent process %d ended (the kernel's parent is now %d)", ppid, now))
				return
			}
			if !processExists(pid) {
				gone(fmt.Sprintf("the process that started it (%s=%d) ended", parentEnv, pid))
				return
			}
		}
	}()
}
