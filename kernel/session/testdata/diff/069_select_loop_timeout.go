package main

import (
	"fmt"
	"time"
)

func main() {
	c := make(chan int)
	go func() {
		time.Sleep(10 * time.Millisecond)
		c <- 1
	}()
	select {
	case v := <-c:
		fmt.Println("got", v)
	case <-time.After(5 * time.Second):
		fmt.Println("timeout")
	}
}

// Output:
// got 1
