package main

import (
	"fmt"
	"sync"
)

type SafeCounter struct {
	sync.Mutex
	n map[string]int
}

func (c *SafeCounter) Inc(k string) {
	c.Lock()
	c.n[k]++
	c.Unlock()
}

func main() {
	c := SafeCounter{n: map[string]int{}}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc("k")
		}()
	}
	wg.Wait()
	fmt.Println(c.n["k"])
}

// Output:
// 20
