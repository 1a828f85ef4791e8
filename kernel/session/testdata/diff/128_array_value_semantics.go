package main

import "fmt"

func main() {
	a := [3]int{1, 2, 3}
	b := a
	b[0] = 9
	fmt.Println(a, b, len(a))
}

// Output:
// [1 2 3] [9 2 3] 3
