package main

import "fmt"

func even(n int) bool {
	if n == 0 {
		return true
	}
	return odd(n - 1)
}

func odd(n int) bool {
	if n == 0 {
		return false
	}
	return even(n - 1)
}

func main() {
	fmt.Println(even(10), odd(7))
}

// Output:
// true true
