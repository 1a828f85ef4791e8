package main

import "fmt"

func main() {
	s := make([]int, 0, 2)
	s = append(s, 1, 2, 3)
	fmt.Println(s, len(s), cap(s) >= 3)
}

// Output:
// [1 2 3] 3 true
