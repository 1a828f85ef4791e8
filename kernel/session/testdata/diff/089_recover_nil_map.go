package main

import "fmt"

func write() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	m["a"] = 1
	return "no panic"
}

func main() {
	fmt.Println(write())
}

// Output:
// assignment to entry in nil map
