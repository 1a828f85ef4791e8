package main

import "fmt"

type P struct {
	X, Y int
}

func main() {
	p := &P{3, 4}
	fmt.Printf("%v\n", *p)
	fmt.Println(p.X + p.Y)
}

// Output:
// {3 4}
// 7
