package main

import (
	"fmt"
	"time"
)

func main() {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	done := time.After(200 * time.Millisecond)
	n := 0
loop:
	for {
		select {
		case <-tick.C:
			n++
			if n == 3 {
				break loop
			}
		case <-done:
			break loop
		}
	}
	fmt.Println("ticks", n)
}

// Output:
// ticks 3
