package main

import "fmt"

func main() {
	x := 2
	y := 3
	// cell
	fmt.Println(x * y)
}

// Output:
// 6
