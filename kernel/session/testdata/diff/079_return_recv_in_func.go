package main

import "fmt"

func next(c chan int) int { return <-c }

func main() {
	c := make(chan int, 1)
	c <- 8
	fmt.Println(next(c))
}

// Output:
// 8
