package main

import "fmt"

func main() {
	s := 0
	for i := range 5 {
		s += i
	}
	fmt.Println(s, min(3, 1, 2), max(2.5, 1), min("b", "a"))
	m := map[string]int{"a": 1}
	clear(m)
	xs := []int{1, 2, 3}
	clear(xs)
	fmt.Println(len(m), xs)
}

// Output:
// 10 1 2.5 a
// 0 [0 0 0]
