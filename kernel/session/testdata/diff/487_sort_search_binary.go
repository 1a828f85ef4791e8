package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	xs := []int{1, 3, 5, 7, 9}
	i := sort.SearchInts(xs, 6)
	j := sort.Search(len(xs), func(k int) bool { return xs[k] >= 7 })
	fmt.Println(i, j)
	words := []string{"banana", "Apple", "cherry"}
	sort.Strings(words)
	fmt.Println(words)
	sort.SliceStable(words, func(a, b int) bool { return strings.ToLower(words[a]) < strings.ToLower(words[b]) })
	fmt.Println(words)
	fs := []float64{2.5, -1, 3}
	sort.Float64s(fs)
	fmt.Println(fs, sort.Float64sAreSorted(fs))
}

// Output:
// 3 3
// [Apple banana cherry]
// [Apple banana cherry]
// [-1 2.5 3] true
