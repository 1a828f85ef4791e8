package main

import (
	"fmt"
	"slices"
)

func main() {
	xs := []int{3, 1, 4}
	// cell
	a := slices.Contains(xs, 4)
	fmt.Println(a)
	// cell
	b := slices.Index(xs, 4)
	fmt.Println(b)
	// cell
	c := slices.DeleteFunc(slices.Clone(xs), func(v int) bool { return v > 3 })
	fmt.Println(c)
	// cell
	d := slices.Insert(xs, 1, 9)
	fmt.Println(d)
	// cell
	e, f := slices.BinarySearch([]int{1, 2, 3}, 2)
	fmt.Println(e, f)
	// cell
	g := slices.Equal(xs, xs)
	fmt.Println(g)
}

// Output:
// true
// 2
// [3 1]
// [3 9 1 4]
// 1 true
// true
