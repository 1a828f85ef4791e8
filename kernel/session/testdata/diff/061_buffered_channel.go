package main

import "fmt"

func main() {
	c := make(chan string, 2)
	c <- "a"
	c <- "b"
	fmt.Println(<-c, <-c, len(c), cap(c))
}

// Output:
// a b 0 2
