package main

import "fmt"

func main() {
	ops := map[string]func(int, int) int{
		"+": func(a, b int) int { return a + b },
		"*": func(a, b int) int { return a * b },
	}
	fmt.Println(ops["+"](2, 3), ops["*"](2, 3))
}

// Output:
// 5 6
