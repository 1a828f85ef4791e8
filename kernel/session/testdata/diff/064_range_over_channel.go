package main

import "fmt"

func main() {
	c := make(chan int)
	go func() {
		for i := 0; i < 3; i++ {
			c <- i
		}
		close(c)
	}()
	for v := range c {
		fmt.Print(v)
	}
	fmt.Println()
}

// Output:
// 012
