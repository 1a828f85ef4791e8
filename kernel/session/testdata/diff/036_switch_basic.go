package main

import "fmt"

func main() {
	for _, n := range []int{1, 2, 5} {
		switch n {
		case 1:
			fmt.Println("one")
		case 2, 3:
			fmt.Println("two or three")
		default:
			fmt.Println("many")
		}
	}
}

// Output:
// one
// two or three
// many
