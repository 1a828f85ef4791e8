package main

import (
	"fmt"
	"maps"
	"slices"
)

func main() {
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	keys := slices.Collect(maps.Keys(m))
	slices.Sort(keys)
	fmt.Println(keys)
	vals := slices.Sorted(maps.Values(m))
	fmt.Println(vals)
	m2 := maps.Clone(m)
	m2["d"] = 4
	fmt.Println(len(m), len(m2), maps.Equal(m, m2))
	maps.DeleteFunc(m2, func(k string, v int) bool { return v%2 == 0 })
	fmt.Println(m2)
}

// Output:
// [a b c]
// [1 2 3]
// 3 4 false
// map[a:1 c:3]
