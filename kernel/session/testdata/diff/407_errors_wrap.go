package main

import (
	"errors"
	"fmt"
	"os"
)

var ErrNotFound = errors.New("not found")

func find(k string) (int, error) {
	if k == "" {
		return 0, fmt.Errorf("find %q: %w", k, ErrNotFound)
	}
	return len(k), nil
}

func main() {
	_, err := find("")
	fmt.Println(err, errors.Is(err, ErrNotFound), errors.Unwrap(err) == ErrNotFound)
	// cell
	_, err = os.Open("/nonexistent/file")
	var pe *os.PathError
	fmt.Println(errors.As(err, &pe), pe.Op, errors.Is(err, os.ErrNotExist))
	j := errors.Join(ErrNotFound, errors.New("x"))
	fmt.Println(j, errors.Is(j, ErrNotFound))
}

// Output:
// find "": not found true true
// true open true
// not found
// x true
