package main

import "fmt"

func main() {
	var a []int
	b := []int{}
	fmt.Println(a == nil, b == nil, len(a), len(b))
}

// Output:
// true false 0 0
