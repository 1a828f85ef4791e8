//go:build unix

package native

import (
	"fmt"
	"os"
	"syscall"
)

func ownedByMe(fi os.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("owned by user %d, not by you (%d)", st.Uid, os.Getuid())
	}
	return nil
}
