package main

import "fmt"

func greet() string { return "hi" }

func main() {
	fmt.Println(greet())
}

// Output:
// hi
