package main

import "fmt"

func main() {
	defer fmt.Println("deferred 1")
	defer fmt.Println("deferred 2")
	fmt.Println("body")
}

// Output:
// body
// deferred 2
// deferred 1
