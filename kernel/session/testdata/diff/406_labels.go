package main

import "fmt"

func main() {
outer:
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if j == 2 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println("|")
	switch x := 2; x {
	case 2:
		fmt.Println("two")
		fallthrough
	case 3:
		fmt.Println("three")
	default:
		fmt.Println("other")
	}
}

// Output:
// 0 0 0 1 1 0 1 1 2 0 2 1 |
// two
// three
