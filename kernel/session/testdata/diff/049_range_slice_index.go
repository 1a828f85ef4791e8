package main

import "fmt"

func main() {
	for i, v := range []string{"x", "y"} {
		fmt.Println(i, v)
	}
}

// Output:
// 0 x
// 1 y
