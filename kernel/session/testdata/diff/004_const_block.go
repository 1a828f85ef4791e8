package main

import "fmt"

const (
	A = 1
	B = A * 10
)

func main() {
	fmt.Println(A, B)
}

// Output:
// 1 10
