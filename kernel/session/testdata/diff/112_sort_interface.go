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
	w := []string{"ccc", "a", "bb"}
	sort.Sort(byLen(w))
	fmt.Println(w)
}

// Output:
// [a bb ccc]
