package main

import "fmt"

type P struct{ X, Y int }

func main() {
	seen := map[P]bool{}
	for _, p := range []P{{1, 2}, {3, 4}, {1, 2}} {
		if seen[p] {
			fmt.Println("dup", p)
		}
		seen[p] = true
	}
	fmt.Println(len(seen), P{1, 2} == P{1, 2})
}

// Output:
// dup {1 2}
// 2 true
