package main

import "fmt"

func main() {
	base := 100
	add := func(x int) int { return base + x }
	// cell
	base = 200
	// cell
	fmt.Println(add(1))
}

// Output:
// 201
