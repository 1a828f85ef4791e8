package main

import (
	"fmt"
	"time"
)

func main() {
	ch := make(chan int)
	go func() {
		time.Sleep(20 * time.Millisecond)
		ch <- 1
	}()
	select {
	case v := <-ch:
		fmt.Println("got", v)
	case <-time.After(2 * time.Second):
		fmt.Println("timeout")
	}
	// cell
	done := make(chan struct{})
	close(done)
	select {
	case <-done:
		fmt.Println("closed")
	default:
		fmt.Println("default")
	}
	v, ok := <-done
	fmt.Println(v, ok)
}

// Output:
// got 1
// closed
// {} false
