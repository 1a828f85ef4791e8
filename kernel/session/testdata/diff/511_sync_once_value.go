package main

import (
	"fmt"
	"strconv"
	"sync"
)

func main() {
	load := sync.OnceValue(func() int {
		fmt.Println("computing")
		return 42
	})
	fmt.Println(load(), load())
	// cell
	parse := sync.OnceValues(func() (int, error) { return strconv.Atoi("12") })
	n, err := parse()
	fmt.Println(n, err)
	// cell
	var wg sync.WaitGroup
	calls := 0
	get := sync.OnceValue(func() string { calls++; return "v" })
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = get()
		}()
	}
	wg.Wait()
	fmt.Println(get(), calls)
	// cell
	boom := sync.OnceValue(func() int { panic("once") })
	for i := 0; i < 2; i++ {
		func() {
			defer func() { fmt.Println("recovered:", recover()) }()
			boom()
		}()
	}
}

// Output:
// computing
// 42 42
// 12 <nil>
// v 1
// recovered: once
// recovered: once
