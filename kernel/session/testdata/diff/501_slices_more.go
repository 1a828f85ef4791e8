package main

import (
	"fmt"
	"slices"
	"strings"
)

func main() {
	xs := []int{3, 1, 4, 1, 5, 9, 2, 6}
	fmt.Println(slices.Contains(xs, 4), slices.Index(xs, 5), slices.IndexFunc(xs, func(v int) bool { return v > 4 }))
	ys := slices.Clone(xs)
	slices.Sort(ys)
	i, found := slices.BinarySearch(ys, 5)
	fmt.Println(ys, i, found)
	fmt.Println(slices.Equal(xs, ys), slices.Min(xs), slices.Max(xs))
	zs := slices.DeleteFunc(slices.Clone(xs), func(v int) bool { return v%2 == 0 })
	fmt.Println(zs)
	zs = slices.Insert(zs, 1, 100, 200)
	fmt.Println(zs, slices.ContainsFunc(zs, func(v int) bool { return v > 150 }))
	words := []string{"b", "a", "c"}
	slices.SortFunc(words, func(a, b string) int { return strings.Compare(b, a) })
	fmt.Println(words, slices.Compact([]int{1, 1, 2, 2, 2, 3}))
}

// Output:
// true 4 4
// [1 1 2 3 4 5 6 9] 5 true
// false 1 9
// [3 1 1 5 9]
// [3 100 200 1 1 5 9] true
// [c b a] [1 2 3]
