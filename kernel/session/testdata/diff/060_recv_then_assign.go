package main

import "fmt"

func main() {
	c := make(chan int, 2)
	c <- 1
	c <- 2
	x := <-c
	x = x + 10
	fmt.Println(x, <-c)
}

// Output:
// 11 2
