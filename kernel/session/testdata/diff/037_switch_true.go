package main

import "fmt"

func main() {
	x := 7
	switch {
	case x > 5:
		fmt.Println("big")
		fallthrough
	case x > 2:
		fmt.Println("medium")
	default:
		fmt.Println("small")
	}
}

// Output:
// big
// medium
