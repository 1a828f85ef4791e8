package main

import "fmt"

func main() {
	m := map[int]string{1: "one"}
	if s, ok := m[1]; ok {
		fmt.Println(s)
	}
}

// Output:
// one
