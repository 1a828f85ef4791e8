package main

import "fmt"

func div(a, b int) (q int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return a / b, true
}

func main() {
	fmt.Println(div(6, 3))
	fmt.Println(div(1, 0))
}

// Output:
// 2 true
// 0 false
