package main

import "fmt"

func main() {
	c := make(chan int, 1)
	c <- 5
	close(c)
	v, ok := <-c
	w, ok2 := <-c
	fmt.Println(v, ok, w, ok2)
}

// Output:
// 5 true 0 false
