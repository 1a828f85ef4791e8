package main

import "fmt"

func apply(f func(int) int, n int) int { return f(f(n)) }

func main() {
	fmt.Println(apply(func(x int) int { return x * 3 }, 2))
}

// Output:
// 18
