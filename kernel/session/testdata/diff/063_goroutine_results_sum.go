package main

import "fmt"

func square(x int, out chan<- int) { out <- x * x }

func main() {
	out := make(chan int)
	for i := 1; i <= 3; i++ {
		go square(i, out)
	}
	t := 0
	for i := 0; i < 3; i++ {
		t += <-out
	}
	fmt.Println(t)
}

// Output:
// 14
