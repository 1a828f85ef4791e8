package main

import (
	"fmt"
	"sync"
)

func main() {
	res := make([]int, 5)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = i * i
		}()
	}
	wg.Wait()
	fmt.Println(res)
	// cell
	ch := make(chan string, 3)
	for _, w := range []string{"x", "y", "z"} {
		go func(s string) { ch <- s + s }(w)
	}
	got := map[string]bool{}
	for range 3 {
		got[<-ch] = true
	}
	fmt.Println(len(got), got["yy"])
}

// Output:
// [0 1 4 9 16]
// 3 true
