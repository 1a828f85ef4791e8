package main

import "fmt"

func main() {
	m := map[string][]int{}
	m["x"] = append(m["x"], 1)
	m["x"] = append(m["x"], 2)
	fmt.Println(m)
}

// Output:
// map[x:[1 2]]
