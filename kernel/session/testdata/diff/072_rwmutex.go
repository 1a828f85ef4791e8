package main

import (
	"fmt"
	"sync"
)

func main() {
	var rw sync.RWMutex
	rw.RLock()
	rw.RLock()
	rw.RUnlock()
	rw.RUnlock()
	rw.Lock()
	fmt.Println("write locked")
	rw.Unlock()
}

// Output:
// write locked
