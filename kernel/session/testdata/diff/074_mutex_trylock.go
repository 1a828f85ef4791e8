package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	fmt.Println(mu.TryLock(), mu.TryLock())
	mu.Unlock()
	fmt.Println(mu.TryLock())
}

// Output:
// true false
// true
