package main

import "fmt"

const (
	Red = iota
	Green
	Blue
)

func main() {
	fmt.Println(Red, Green, Blue)
}

// Output:
// 0 1 2
