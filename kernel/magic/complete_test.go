package magic_test

import (
	"slices"
	"testing"
)

// Options of a magic are completed after its name, from its help.
func TestCompleteMagicOptions(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		code, want, notWant string
		start               int
	}{
		{"%timeit --ch", "--check", "--plot", 8},
		{"%timeit -", "--vs", "", 8},
		{"%prof --tr", "--trace", "--check", 6},
		{"%%timeit --pl", "--plot", "", 9},
		{"%lsmagic", "%lsmagic", "", 0},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		if !slices.Contains(got.Matches, c.want) || c.notWant != "" && slices.Contains(got.Matches, c.notWant) ||
			got.Start != c.start || len(got.Details) != len(got.Matches) {
			t.Errorf("Complete(%q) = %v [%d,%d) %v; want %q (not %q) from %d", c.code, got.Matches, got.Start, got.End, got.Details, c.want, c.notWant, c.start)
		}
	}
}
