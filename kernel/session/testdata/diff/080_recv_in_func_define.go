package main

import "fmt"

func pair(c chan int) (int, bool) {
	v, ok := <-c
	return v, ok
}

func main() {
	c := make(chan int, 1)
	c <- 1
	close(c)
	fmt.Println(pair(c))
	fmt.Println(pair(c))
}

// Output:
// 1 true
// 0 false
