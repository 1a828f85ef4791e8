package main

import "fmt"

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

func (r *Rect) Scale(k float64) { r.W *= k; r.H *= k }

func main() {
	r := Rect{2, 3}
	r.Scale(2)
	fmt.Println(r.Area())
}

// Output:
// 24
