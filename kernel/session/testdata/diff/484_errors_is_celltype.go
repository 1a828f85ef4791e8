package main

import (
	"errors"
	"fmt"
)

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

var ErrMissing = &NotFound{"m"}

var ErrPlain = errors.New("plain")

func main() {
	err := fmt.Errorf("lookup: %w", ErrMissing)
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrMissing))
	err2 := fmt.Errorf("lookup: %w", ErrPlain)
	fmt.Println(errors.Is(err2, ErrPlain), errors.Is(err2, ErrMissing))
}

// Output:
// lookup: not found: m
// true
// true false
