package main

import (
	"fmt"
	"strings"
)

func main() {
	words := strings.Fields("apple avocado banana blueberry cherry apricot")
	groups := map[byte][]string{}
	for _, w := range words {
		groups[w[0]] = append(groups[w[0]], w)
	}
	fmt.Println(groups)
	fmt.Println(len(groups['a']), groups['z'] == nil)
	type pair struct {
		a, b int
	}
	ps := []pair{{1, 2}, {3, 4}}
	for i := range ps {
		ps[i].a *= 10
	}
	for _, p := range ps {
		p.b = 0
	}
	fmt.Println(ps)
}

// Output:
// map[97:[apple avocado apricot] 98:[banana blueberry] 99:[cherry]]
// 3 true
// [{10 2} {30 4}]
