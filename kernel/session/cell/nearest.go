package cell

import (
	"sort"
	"strings"
)

// Nearest returns the candidates closest to name (case-insensitive edit
// distance at most 2, or a case-insensitive prefix of 3 or more letters),
// best first, at most three: the "did you mean" of error messages.
func Nearest(name string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	var found []scored
	low := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(low, lc)
		if d > 2 && !(len(low) >= 3 && strings.HasPrefix(lc, low)) {
			continue
		}
		found = append(found, scored{c, d})
	}
	sort.Slice(found, func(i, j int) bool {
		return found[i].d < found[j].d || found[i].d == found[j].d && found[i].s < found[j].s
	})
	var out []string
	for i := 0; i < len(found) && i < 3; i++ {
		out = append(out, found[i].s)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
