package main

import (
	"fmt"
	"slices"
)

func main() {
	x := []int{1, 2, 3}
	x = slices.Insert(x, 1, 9)
	fmt.Println(x)
	x = slices.Delete(x, 0, 2)
	fmt.Println(x)
}

// Output:
// [1 9 2 3]
// [2 3]
