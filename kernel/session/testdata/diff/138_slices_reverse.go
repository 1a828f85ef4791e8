package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{1, 2, 3}
	slices.Reverse(x)
	fmt.Println(x)
}

// Output:
// [3 2 1]
