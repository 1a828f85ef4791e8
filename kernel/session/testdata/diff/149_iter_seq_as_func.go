package main

import (
	"fmt"
	"iter"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	count(3)(func(i int) bool { fmt.Print(i); return true })
	fmt.Println()
}

// Output:
// 012
