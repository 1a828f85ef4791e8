package main

import "fmt"

func makeCounter() func() int {
	n := 0
	return func() int {
		n++
		return n
	}
}

func main() {
	c1, c2 := makeCounter(), makeCounter()
	c1()
	c1()
	fmt.Println(c1(), c2())
	// cell
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * 10 })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println("|")
}

// Output:
// 3 1
// 0 10 20 |
