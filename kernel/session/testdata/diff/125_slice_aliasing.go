package main

import "fmt"

func main() {
	a := []int{1, 2, 3, 4}
	b := a[1:3]
	b[0] = 20
	fmt.Println(a, b, len(b), cap(b))
}

// Output:
// [1 20 3 4] [20 3] 2 3
