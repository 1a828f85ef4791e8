package session

import (
	"strings"
	"testing"
)

// TestBoundsPanicsSayTheNumbers: an index or slice bounds panic of a
// cell's top-level code says what `go run` says (the messages below are
// its output for the same program); when the numbers cannot be known (in
// a function, or two candidates) the message stays the general one.
func TestBoundsPanicsSayTheNumbers(t *testing.T) {
	s := newSession(t)
	if res, _ := exec(t, s, 1, "import \"fmt\"\ns := []int{1, 2, 3}\narr := [3]int{1, 2, 3}\nstr := \"abc\"\ni, j, m := 5, 1, -1"); res.Err != nil {
		t.Fatal(res.Err.Value)
	}
	for n, c := range []struct{ code, want string }{
		{"fmt.Println(s[i])", "runtime error: index out of range [5] with length 3"},
		{"fmt.Println(arr[i])", "runtime error: index out of range [5] with length 3"},
		{"fmt.Println(str[i])", "runtime error: index out of range [5] with length 3"},
		{"s[m] = 3", "runtime error: index out of range [-1]"},
		{"fmt.Println(s[1:i])", "runtime error: slice bounds out of range [:5] with capacity 3"},
		{"fmt.Println(str[:i])", "runtime error: slice bounds out of range [:5] with length 3"},
		{"fmt.Println(arr[:i])", "runtime error: slice bounds out of range [:5] with length 3"},
		{"fmt.Println(s[2:j])", "runtime error: slice bounds out of range [2:1]"},
		{"fmt.Println(s[i:])", "runtime error: slice bounds out of range [5:3]"},
		{"fmt.Println(s[m:])", "runtime error: slice bounds out of range [-1:]"},
		{"x := s[4]", "runtime error: index out of range [4] with length 3"},
		// not known for sure: the general message
		{"fmt.Println(s[i], s[9])", "runtime error: index out of range: a slice index is negative or not less than len"},
		{"func at(k int) int { return s[k] }\nat(7)", "runtime error: index out of range: a slice index is negative or not less than len"},
	} {
		t.Run(c.code, func(t *testing.T) {
			res, _ := exec(t, s, n+2, c.code)
			if res.Err == nil {
				t.Fatal("no error")
			}
			if got, _, _ := strings.Cut(res.Err.Value, " (in the function"); got != c.want {
				t.Errorf("message %q, want %q", got, c.want)
			}
		})
	}
}
