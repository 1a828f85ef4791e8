package main

import "fmt"

func main() {
	for i := range 3 {
		fmt.Print(i)
	}
	fmt.Println()
}

// Output:
// 012
