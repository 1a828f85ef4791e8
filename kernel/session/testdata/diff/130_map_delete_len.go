package main

import "fmt"

func main() {
	m := map[string]int{"a": 1, "b": 2}
	delete(m, "a")
	fmt.Println(len(m), m)
}

// Output:
// 1 map[b:2]
