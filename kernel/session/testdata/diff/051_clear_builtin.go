package main

import "fmt"

func main() {
	m := map[int]int{1: 1, 2: 2}
	clear(m)
	s := []int{1, 2}
	clear(s)
	fmt.Println(len(m), s)
}

// Output:
// 0 [0 0]
