package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	text := "the cat the dog the end"
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, counts[k])
	}
}

// Output:
// cat 1
// dog 1
// end 1
// the 3
