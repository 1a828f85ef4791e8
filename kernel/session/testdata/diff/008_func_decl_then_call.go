package main

import "fmt"

func double(x int) int { return 2 * x }

func main() {
	fmt.Println(double(21))
}

// Output:
// 42
