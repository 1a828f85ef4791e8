package main

import (
	"fmt"
	"maps"
)

func main() {
	a := map[int]int{1: 1}
	b := map[int]int{}
	maps.Copy(b, a)
	fmt.Println(maps.Equal(a, b))
}

// Output:
// true
