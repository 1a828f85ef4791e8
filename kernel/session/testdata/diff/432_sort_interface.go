package main

import (
	"fmt"
	"sort"
)

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

func main() {
	xs := byLen{"ccc", "a", "bb"}
	sort.Sort(xs)
	fmt.Println(xs, sort.IsSorted(xs))
	sort.Sort(sort.Reverse(xs))
	fmt.Println(xs)
}

// Output:
// [a bb ccc] true
// [ccc bb a]
