package main

import "fmt"

func main() {
	a, b := 3, 7
	fmt.Println(min(a, b), max(a, b), min(2.5, 1), max("a", "b"))
}

// Output:
// 3 7 1 b
