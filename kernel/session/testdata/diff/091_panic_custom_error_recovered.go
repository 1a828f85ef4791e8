package main

import (
	"errors"
	"fmt"
)

func main() {
	var errBad = errors.New("bad input")
	defer func() {
		r := recover()
		fmt.Println("recovered:", r)
	}()
	panic(errBad)
}

// Output:
// recovered: bad input
