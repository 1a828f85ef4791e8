//go:build !unix

package notebook

import "os"

func umask() os.FileMode { return 0o022 }
