//go:build linux

package tensor

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds address p.
func vmFlags(t *testing.T, p uintptr) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(l, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= p && p < hi
			continue
		}
		if f, ok := strings.CutPrefix(l, "VmFlags:"); ok && in {
			return strings.Fields(f)
		}
	}
	t.Fatalf("no mapping holds %#x", p)
	return nil
}

// TestReadBackAdvisesHugePages: the slice a large read returns lies on
// memory advised for transparent huge pages (VmFlags "hg"), so the copy
// takes one page fault per 2 MiB where the pages are new, not 512.
func TestReadBackAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	onDevice(t, "GO")
	for _, c := range []struct {
		name string
		read func() []byte
	}{
		{"Float32s", func() []byte { return sliceBytes(Arange(4 << 20).Realize().Float32s()) }},
		{"Float64s", func() []byte { return sliceBytes(Arange(4 << 20).Cast(Float64).Realize().Float64s()) }},
		{"Int32s", func() []byte { return sliceBytes(Arange(4 << 20).Cast(Int32).Realize().Int32s()) }},
	} {
		b := c.read()
		mid := uintptr(unsafe.Pointer(&b[len(b)/2])) &^ (hugePage - 1)
		if !slices.Contains(vmFlags(t, mid), "hg") {
			t.Errorf("%s of %d MiB: the slice's memory is not advised for huge pages (VmFlags %v)", c.name, len(b)>>20, vmFlags(t, mid))
		}
	}
}
