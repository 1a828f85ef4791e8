package main

import (
	"fmt"
	"maps"
)

func cloned(m map[string]int) map[string]int {
	c := maps.Clone(m)
	c["z"] = 26
	return c
}

func main() {
	m := map[string]int{"a": 1}
	fmt.Println(cloned(m), m)
}

// Output:
// map[a:1 z:26] map[a:1]
