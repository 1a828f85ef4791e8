package main

import "fmt"

func label() string { return "v1" }

func main() {
	fmt.Println(label())
}

// Output:
// v1
