package main

import "fmt"

func main() {
	src := []int{1, 2, 3}
	dst := make([]int, 2)
	n := copy(dst, src)
	fmt.Println(n, dst)
}

// Output:
// 2 [1 2]
