package main

import "fmt"

func main() {
	x := 10
	if x > 1 {
		fmt.Println("gt1")
	} else if x > 0 {
		fmt.Println("gt0")
	} else {
		fmt.Println("le0")
	}
}

// Output:
// gt1
