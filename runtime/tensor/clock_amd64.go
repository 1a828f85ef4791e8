package tensor

// rdtsc returns the time-stamp counter (clock_amd64.s).
//
//go:noescape
func rdtsc() uint64

// cpuid returns CPUID's registers for leaf (subleaf 0) (clock_amd64.s).
//
//go:noescape
func cpuid(leaf uint32) (eax, ebx, ecx, edx uint32)

// invariantTSC: CPUID 0x80000007 EDX bit 8, a counter at a constant rate
// in every power state (Linux's constant_tsc and nonstop_tsc).
var invariantTSC = func() bool {
	if max, _, _, _ := cpuid(0x80000000); max < 0x80000007 {
		return false
	}
	_, _, _, edx := cpuid(0x80000007)
	return edx&(1<<8) != 0
}()

// readTSC reads the counter, or reports it unusable.
func readTSC() (uint64, bool) {
	if !invariantTSC {
		return 0, false
	}
	return rdtsc(), true
}
