//go:build !linux

package tensor

// adviseHugePages does nothing where madvise(MADV_HUGEPAGE) does not
// exist (hugepage_linux.go).
func adviseHugePages([]byte) {}
