package main

import (
	"fmt"
	"sync"
	"time"
)

func schedule(n int) []int {
	got := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		x := i * 10
		time.AfterFunc(time.Millisecond, func() {
			got[x/10] = x
			wg.Done()
		})
	}
	wg.Wait()
	return got
}

func main() {
	fmt.Println(schedule(4))
	// cell
	var onces []func()
	for _, name := range []string{"a", "b", "c"} {
		onces = append(onces, sync.OnceFunc(func() { fmt.Print(name) }))
	}
	for _, f := range onces {
		f()
		f()
	}
	fmt.Println()
}

// Output:
// [0 10 20 30]
// abc
