package main

import "fmt"

func main() {
	a := []int{1, 2, 3, 4}
	b := a[0:2:2]
	b = append(b, 9)
	fmt.Println(a, b)
}

// Output:
// [1 2 3 4] [1 2 9]
