package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := 1; i <= 100; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			mu.Lock()
			total += n
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	fmt.Println(total)
	// cell
	results := make(chan int, 10)
	for i := 0; i < 10; i++ {
		go func() { results <- i * i }()
	}
	sum := 0
	for i := 0; i < 10; i++ {
		sum += <-results
	}
	fmt.Println(sum)
}

// Output:
// 5050
// 285
