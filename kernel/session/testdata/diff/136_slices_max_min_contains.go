package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{3, 1, 2}
	fmt.Println(slices.Max(x), slices.Min(x), slices.Contains(x, 2), slices.Index(x, 3))
}

// Output:
// 3 1 true 0
