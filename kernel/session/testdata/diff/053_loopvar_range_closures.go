package main

import "fmt"

func main() {
	var fs []func() string
	for _, s := range []string{"a", "b"} {
		fs = append(fs, func() string { return s })
	}
	fmt.Println(fs[0](), fs[1]())
}

// Output:
// a b
