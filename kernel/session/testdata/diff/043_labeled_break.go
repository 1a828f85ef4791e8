package main

import "fmt"

func main() {
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Print(i, j, ";")
		}
	}
	fmt.Println()
}

// Output:
// 0 0;0 1;1 0;1 1;
