package main

import (
	"fmt"
	"sync"
)

func work(id int, wg *sync.WaitGroup, out chan<- int) {
	defer wg.Done()
	out <- id * id
}

func main() {
	var wg sync.WaitGroup
	out := make(chan int, 3)
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go work(i, &wg, out)
	}
	wg.Wait()
	close(out)
	t := 0
	for v := range out {
		t += v
	}
	fmt.Println(t)
}

// Output:
// 14
