package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{3, 1}
	y := slices.Clone(x)
	fmt.Println(y)
}

// Output:
// [3 1]
