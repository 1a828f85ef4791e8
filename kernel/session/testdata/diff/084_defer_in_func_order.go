package main

import "fmt"

func f() {
	defer fmt.Println("a")
	defer fmt.Println("b")
	fmt.Println("f")
}

func main() {
	f()
}

// Output:
// f
// b
// a
