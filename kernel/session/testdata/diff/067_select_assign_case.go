package main

import "fmt"

func main() {
	c := make(chan int, 1)
	c <- 9
	var got int
	select {
	case got = <-c:
	}
	fmt.Println(got)
}

// Output:
// 9
