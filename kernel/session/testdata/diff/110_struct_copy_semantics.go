package main

import "fmt"

type V struct{ X int }

func main() {
	a := V{1}
	b := a
	b.X = 2
	fmt.Println(a.X, b.X)
}

// Output:
// 1 2
