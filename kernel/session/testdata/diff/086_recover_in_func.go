package main

import "fmt"

func safe() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	panic("boom")
}

func main() {
	fmt.Println(safe())
}

// Output:
// recovered: boom
