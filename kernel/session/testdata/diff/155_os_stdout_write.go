package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stdout, "to stdout")
	os.Stdout.Write([]byte("raw\n"))
}

// Output:
// to stdout
// raw
