//go:build unix

package kernel_test

import "syscall"

// setRcvBuf sets a socket's receive buffer size.
func setRcvBuf(fd uintptr, n int) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
}
