package units

import "testing"

func TestQuantity(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		unit string
		want string
	}{
		{1572864, "FLOP", "1.57 MFLOP"},
		{786432, "B", "786 kB"},
		{512, "FLOP", "512 FLOP"},
		{0, "B", "0 B"},
		{999960, "B", "1.00 MB"},
		{33554432, "FLOP", "33.6 MFLOP"},
		{2.5e15 * 1000, "FLOP", "2500 PFLOP"},
	} {
		if got := Quantity(tc.v, tc.unit); got != tc.want {
			t.Errorf("Quantity(%v, %q) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}
