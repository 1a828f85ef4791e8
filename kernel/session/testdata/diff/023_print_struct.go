package main

import "fmt"

type P struct {
	X, Y int
}

func main() {
	p := P{1, 2}
	fmt.Printf("%v %+v\n", p, p)
}

// Output:
// {1 2} {X:1 Y:2}
