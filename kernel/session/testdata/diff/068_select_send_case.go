package main

import "fmt"

func main() {
	c := make(chan int, 1)
	select {
	case c <- 3:
		fmt.Println("sent")
	default:
		fmt.Println("full")
	}
	fmt.Println(<-c)
}

// Output:
// sent
// 3
