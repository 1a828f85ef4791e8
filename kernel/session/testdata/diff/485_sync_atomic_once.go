package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var n atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Add(2)
		}()
	}
	wg.Wait()
	fmt.Println(n.Load())
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once", i) })
	}
	var m sync.Map
	m.Store("a", 1)
	v, ok := m.Load("a")
	fmt.Println(v, ok)
}

// Output:
// 100
// once 0
// 1 true
