package main

import "fmt"

func main() {
	total := 0
	add := func(n int) { total += n }
	// cell
	add(2)
	add(3)
	// cell
	fmt.Println(total)
}

// Output:
// 5
