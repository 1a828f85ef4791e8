package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

func main() {
	_, err := os.Open("/definitely/not/here")
	var pe *fs.PathError
	fmt.Println(errors.As(err, &pe), pe.Op)
}

// Output:
// true open
