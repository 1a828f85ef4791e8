package main

import "fmt"

func main() {
	a := make([]int, 3, 10)
	b := append(a, 4)
	c := append(a, 5)
	fmt.Println(a, b, c, len(b), cap(b))
	// cell
	arr := [3]int{1, 2, 3}
	brr := arr
	brr[0] = 9
	fmt.Println(arr, brr, arr == [3]int{1, 2, 3})
	s := arr[:]
	s[1] = 7
	fmt.Println(arr)
}

// Output:
// [0 0 0] [0 0 0 5] [0 0 0 5] 4 10
// [1 2 3] [9 2 3] true
// [1 7 3]
