package main

import "fmt"

func trace(s string) string {
	fmt.Println("enter", s)
	return s
}

func un(s string) { fmt.Println("leave", s) }

func a() {
	defer un(trace("a"))
	fmt.Println("in a")
}

func counter() (n int) {
	defer func() { n *= 2 }()
	n = 3
	return n + 1
}

func main() {
	a()
	fmt.Println(counter())
	defer fmt.Println()
	for i := 0; i < 3; i++ {
		defer fmt.Print(" ", i)
	}
}

// Output:
// enter a
// in a
// leave a
// 8
//  2 1 0
