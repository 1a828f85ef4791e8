package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{1, 3, 5}
	fmt.Println(slices.BinarySearch(x, 3))
	fmt.Println(slices.BinarySearch(x, 4))
}

// Output:
// 1 true
// 2 false
