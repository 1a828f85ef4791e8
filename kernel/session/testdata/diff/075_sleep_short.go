package main

import (
	"fmt"
	"time"
)

func main() {
	start := time.Now()
	time.Sleep(20 * time.Millisecond)
	fmt.Println(time.Since(start) >= 20*time.Millisecond)
}

// Output:
// true
