package main

import "fmt"

func main() {
	src := []int{1, 2, 3, 4, 5}
	dst := make([]int, 3)
	n := copy(dst, src)
	fmt.Println(n, dst)
	t := src[1:3:4]
	fmt.Println(t, len(t), cap(t))
	t = append(t, 9)
	fmt.Println(src)
	t = append(t, 10)
	t[0] = 0
	fmt.Println(src, t)
	var nilS []int
	fmt.Println(nilS == nil, len(nilS), append(nilS, 1))
}

// Output:
// 3 [1 2 3]
// [2 3] 2 3
// [1 2 3 9 5]
// [1 2 3 9 5] [0 3 9 10]
// true 0 [1]
