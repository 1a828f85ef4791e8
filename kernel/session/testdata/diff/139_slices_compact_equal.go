package main

import (
	"fmt"
	"slices"
)

func main() {
	fmt.Println(slices.Compact([]int{1, 1, 2, 2, 3}), slices.Equal([]int{1}, []int{1}))
}

// Output:
// [1 2 3] true
