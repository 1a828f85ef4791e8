package main

import "fmt"

func f() (n int) {
	defer func() { n *= 2 }()
	return 21
}

func main() {
	fmt.Println(f())
}

// Output:
// 42
