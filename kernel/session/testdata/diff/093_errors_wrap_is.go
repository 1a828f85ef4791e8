package main

import (
	"errors"
	"fmt"
)

func main() {
	var ErrNotFound = errors.New("not found")
	err := fmt.Errorf("load: %w", ErrNotFound)
	fmt.Println(err, errors.Is(err, ErrNotFound), errors.Unwrap(err) == ErrNotFound)
}

// Output:
// load: not found true true
