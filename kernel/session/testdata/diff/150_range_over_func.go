package main

import "fmt"

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	for i := range count(3) {
		fmt.Print(i)
	}
	fmt.Println()
}

// Unsupported: range over a function
// Output:
// 012
