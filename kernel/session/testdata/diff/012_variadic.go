package main

import "fmt"

func sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func main() {
	fmt.Println(sum(1, 2, 3), sum())
	nums := []int{4, 5}
	fmt.Println(sum(nums...))
}

// Output:
// 6 0
// 9
