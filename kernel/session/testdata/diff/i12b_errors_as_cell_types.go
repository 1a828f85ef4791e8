package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

type NotFound struct{ Name string }

func (e *NotFound) Error() string { return e.Name + " not found" }

type Timeout struct{ Secs, Retries int }

func (e Timeout) Error() string { return fmt.Sprintf("timeout after %ds", e.Secs) }

var ErrGone = &NotFound{"gone"}

func find(name string) error {
	if name == "" {
		return fmt.Errorf("find: %w", ErrGone)
	}
	return fmt.Errorf("find %q: %w", name, &NotFound{name})
}

func main() {
	var nf *NotFound
	err := find("cfg")
	fmt.Println(err, errors.As(err, &nf), nf.Name)
	// cell
	fmt.Println(errors.Is(find(""), ErrGone), errors.Is(err, ErrGone))
	var to Timeout
	werr := fmt.Errorf("dial: %w", Timeout{3, 1})
	fmt.Println(werr, errors.As(werr, &to), to.Secs, errors.Unwrap(werr))
	fmt.Println(errors.As(werr, &nf))
	var pe *fs.PathError
	_, oerr := os.Open("/nonexistent-i12b")
	fmt.Println(errors.As(oerr, &pe), errors.Is(oerr, fs.ErrNotExist), errors.As(oerr, &nf))
}

// Output:
// find "cfg": cfg not found true cfg
// true false
// dial: timeout after 3s true 3 timeout after 3s
// false
// true true false
