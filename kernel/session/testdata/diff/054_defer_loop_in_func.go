package main

import "fmt"

func run() {
	for i := 0; i < 3; i++ {
		defer fmt.Print(i)
	}
}

func main() {
	run()
	fmt.Println()
}

// Output:
// 210
