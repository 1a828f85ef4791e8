package main

import "fmt"

type S struct{ N int }

func main() {
	m := map[string]*S{"a": {1}}
	m["a"].N++
	fmt.Println(m["a"].N)
}

// Output:
// 2
