package main

import "fmt"

func main() {
	m := map[string]int{"a": 1, "b": 2}
	t := 0
	for _, v := range m {
		t += v
	}
	fmt.Println(t)
}

// Output:
// 3
