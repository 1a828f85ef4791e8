package main

import "fmt"

func main() {
	var f float64 = 3
	var a, b int = 1, 2
	fmt.Println(f, a, b)
}

// Output:
// 3 1 2
