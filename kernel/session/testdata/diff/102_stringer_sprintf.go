package main

import "fmt"

type Pt struct{ X, Y int }

func (p Pt) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func main() {
	s := fmt.Sprintf("%v", Pt{1, 2})
	fmt.Println(s)
}

// Output:
// (1,2)
