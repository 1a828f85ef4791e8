package main

import "fmt"

var memo = map[int]int{}

func fib(n int) int {
	if n < 2 {
		return n
	}
	if v, ok := memo[n]; ok {
		return v
	}
	r := fib(n-1) + fib(n-2)
	memo[n] = r
	return r
}

func main() {
	fmt.Println(fib(50), len(memo))
	var fact func(int) int
	fact = func(n int) int {
		if n == 0 {
			return 1
		}
		return n * fact(n-1)
	}
	fmt.Println(fact(10))
}

// Output:
// 12586269025 49
// 3628800
