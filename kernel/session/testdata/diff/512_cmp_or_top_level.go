package main

import (
	"cmp"
	"fmt"
)

func main() {
	name, fallback := "", "anonymous"
	shown := cmp.Or(name, fallback)
	fmt.Println(shown)
	// cell
	port := cmp.Or(0, 0, 8080)
	fmt.Println(port, cmp.Compare(port, 80))
}

// Output:
// anonymous
// 8080 1
