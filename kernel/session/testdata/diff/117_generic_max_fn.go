package main

import "fmt"

func Biggest[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func main() {
	x, y := 3, 9
	fmt.Println(Biggest(x, y))
}

// Output:
// 9
