package main

import "fmt"

func main() {
	n := 4
	s := 0
	for i := range n {
		s += i
	}
	fmt.Println(s)
}

// Output:
// 6
