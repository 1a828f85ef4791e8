package main

import "fmt"

func counter() func() int {
	c := 0
	return func() int { c++; return c }
}

func main() {
	next := counter()
	next()
	next()
	fmt.Println(next())
}

// Output:
// 3
