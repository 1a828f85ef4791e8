package main

import (
	"fmt"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func main() {
	c := &Counter{}
	for i := 0; i < 5; i++ {
		c.Inc()
	}
	fmt.Println(c.n)
}

// Output:
// 5
