package main

import (
	"fmt"
	"slices"
)

func sortedCopy(x []int) []int {
	y := slices.Clone(x)
	slices.Sort(y)
	return y
}

func main() {
	x := []int{3, 1, 2}
	fmt.Println(sortedCopy(x), x)
}

// Output:
// [1 2 3] [3 1 2]
