package main

import "fmt"

func main() {
	var s = "go"
	var n = len(s)
	fmt.Println(s, n)
}

// Output:
// go 2
