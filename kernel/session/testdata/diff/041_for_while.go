package main

import "fmt"

func main() {
	n := 1
	for n < 100 {
		n *= 3
	}
	fmt.Println(n)
}

// Output:
// 243
