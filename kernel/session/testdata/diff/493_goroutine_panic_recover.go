package main

import (
	"fmt"
	"sync"
)

func safeGo(wg *sync.WaitGroup, errs chan<- string, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				errs <- fmt.Sprint("recovered: ", r)
			}
		}()
		f()
	}()
}

func main() {
	var wg sync.WaitGroup
	errs := make(chan string, 2)
	safeGo(&wg, errs, func() { panic("boom") })
	wg.Wait()
	close(errs)
	for e := range errs {
		fmt.Println(e)
	}
}

// Output:
// recovered: boom
