package main

import (
	"fmt"
	"strings"
)

func square(x int) int { return x * x }

// range over a channel parameter, with continue, break and a label
func collect(in <-chan int) []int {
	var got []int
outer:
	for v := range in {
		switch {
		case v == 2:
			continue
		case v > 5:
			break outer
		}
		for i := 0; i < 2; i++ {
			if i == 1 {
				continue outer
			}
			got = append(got, v)
		}
	}
	return got
}

func produce(n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := range n {
			out <- i
		}
	}()
	return out
}

func main() {
	c := make(chan int, 10)
	for i := 1; i <= 10; i++ {
		c <- i
	}
	fmt.Println("got", <-c)
	x := square(<-c) + 1
	fmt.Println(x, <-c+<-c)
	// cell
	words := make(chan string, 2)
	words <- "go"
	words <- "tick"
	fmt.Println(strings.ToUpper(<-words), len(<-words))
	close(words)
	// a closed channel gives the zero value, in an expression too
	fmt.Printf("%q\n", <-words)
	// cell
	fmt.Println(collect(c))
	// cell
	sum := 0
	for v := range produce(5) {
		sum += v
	}
	fmt.Println(sum)
	ch := make(chan int, 3)
	ch <- 4
	ch <- 5
	close(ch)
	var last int
	for last = range ch {
	}
	fmt.Println(last)
	for range ch {
		fmt.Println("not reached")
	}
	fmt.Println("done")
}

// Output:
// got 1
// 5 7
// GO 4
// ""
// [5]
// 10
// 5
// done
