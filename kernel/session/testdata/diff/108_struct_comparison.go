package main

import "fmt"

type K struct {
	A int
	B string
}

func main() {
	fmt.Println(K{1, "x"} == K{1, "x"}, K{1, "x"} == K{2, "x"})
	m := map[K]int{{1, "a"}: 5}
	fmt.Println(m[K{1, "a"}])
}

// Output:
// true false
// 5
