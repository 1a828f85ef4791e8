//go:build !unix

package native

import "os"

func ownedByMe(os.FileInfo) error { return nil }
