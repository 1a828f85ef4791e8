package main

import "fmt"

func main() {
	i := 1
	defer fmt.Println("i was", i)
	i = 5
	fmt.Println("i is", i)
}

// Output:
// i is 5
// i was 1
