package main

import (
	"fmt"
	"sort"
)

func main() {
	a := []int{3, 1, 2}
	sort.Ints(a)
	s := []string{"b", "a"}
	sort.Strings(s)
	fmt.Println(a, s, sort.SearchInts(a, 2))
}

// Output:
// [1 2 3] [a b] 1
