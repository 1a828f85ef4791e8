package main

import "fmt"

func main() {
	n := 1
	// cell
	n = n + 41
	// cell
	fmt.Println(n)
}

// Output:
// 42
