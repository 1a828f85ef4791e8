package main

import (
	"errors"
	"fmt"
)

func main() {
	err := errors.New("failed")
	fmt.Println(err, err != nil)
}

// Output:
// failed true
