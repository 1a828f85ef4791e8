package main

import "fmt"

func main() {
	m := map[string]int{"a": 1}
	v, ok := m["a"]
	w, ok2 := m["z"]
	fmt.Println(v, ok, w, ok2)
}

// Output:
// 1 true 0 false
