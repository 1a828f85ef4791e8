package main

import "fmt"

func main() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("recovered", r)
		}
	}()
	fmt.Println("before")
	panic("oops")
}

// Output:
// before
// recovered oops
