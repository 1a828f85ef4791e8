package main

import (
	"fmt"
	"sort"
)

func main() {
	m := map[int]string{1: "a", 2: "b", 3: "c", 4: "d"}
	for k := range m {
		if k%2 == 0 {
			delete(m, k)
		}
	}
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	fmt.Println(keys, len(m))
	v, ok := m[2]
	fmt.Printf("%q %v\n", v, ok)
	nested := map[string]map[string]int{}
	if nested["x"] == nil {
		nested["x"] = map[string]int{}
	}
	nested["x"]["y"]++
	fmt.Println(nested)
}

// Output:
// [1 3] 2
// "" false
// map[x:map[y:1]]
