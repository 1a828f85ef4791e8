//go:build cgo && linux

package native

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAllocAdvisesHugePages checks that a buffer of HugeMin bytes or more
// starts on a 2 MiB boundary and that the kernel took the huge-page advice
// for its mapping (smaps' THPeligible, which reflects MADV_HUGEPAGE in THP's
// "madvise" mode), and that a smaller one is left as it was. Whether the
// pages are then huge depends on free memory, so the test does not ask.
func TestAllocAdvisesHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages unavailable (%q, %v)", mode, err)
	}
	for _, tc := range []struct {
		n         int
		wantHuge  bool
		alignment uintptr
	}{
		{HugeMin, true, 2 << 20},
		{64 << 20, true, 2 << 20},
		{HugeMin - 4096, false, 64},
	} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			p, err := Alloc(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			defer Free(p)
			if uintptr(p)%tc.alignment != 0 {
				t.Fatalf("Alloc(%d) = %p: not aligned to %d", tc.n, p, tc.alignment)
			}
			b := unsafe.Slice((*byte)(p), tc.n)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			eligible, err := thpEligible(uintptr(p))
			if err != nil {
				t.Fatal(err)
			}
			// In "always" mode every large anonymous mapping is eligible.
			always := strings.Contains(string(mode), "[always]")
			if tc.wantHuge && !eligible {
				t.Errorf("Alloc(%d): the mapping is not eligible for huge pages (MADV_HUGEPAGE missing)", tc.n)
			}
			if !tc.wantHuge && eligible && !always {
				t.Errorf("Alloc(%d): a small buffer's mapping was advised for huge pages", tc.n)
			}
		})
	}
}

// thpEligible reads /proc/self/smaps for the mapping holding addr.
func thpEligible(addr uintptr) (bool, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = addr >= lo && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "THPeligible:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "THPeligible:")) == "1", nil
		}
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	return false, fmt.Errorf("no THPeligible line for %#x in /proc/self/smaps", addr)
}
