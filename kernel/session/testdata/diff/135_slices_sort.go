package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{3, 1, 2}
	slices.Sort(x)
	fmt.Println(x)
}

// Output:
// [1 2 3]
