package tensor

import (
	"math"
	"strings"
	"testing"
)

// testDevices lists the computing devices every correctness test runs on:
// each available backend except NULL (which computes nothing) and the
// test-only TEST* devices. Each test
// switches the default device to the one under test.
func testDevices(t *testing.T) []string {
	var out []string
	for _, n := range AvailableBackends() {
		if n != "NULL" && !strings.HasPrefix(n, "TEST") {
			out = append(out, n)
		}
	}
	return out
}

// onDevice makes dev the default for the duration of the (sub)test.
func onDevice(t *testing.T, dev string) {
	prev := DefaultDevice()
	if err := SetDefaultDevice(dev); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = SetDefaultDevice(prev) })
}

func nan() float64 { return math.NaN() }
