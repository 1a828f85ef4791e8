//go:build unix && !linux

package supervisor

import "syscall"

// engineDeathSignal: without Linux's parent-death signal, the engine
// exits when its input pipe closes (the supervisor's end closes when it
// dies).
func engineDeathSignal(*syscall.SysProcAttr) {}
