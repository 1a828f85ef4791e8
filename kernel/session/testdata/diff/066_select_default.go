package main

import "fmt"

func main() {
	c := make(chan int)
	select {
	case v := <-c:
		fmt.Println(v)
	default:
		fmt.Println("nothing ready")
	}
}

// Output:
// nothing ready
