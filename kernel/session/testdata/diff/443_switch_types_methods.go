package main

import "fmt"

type Circle struct{ R float64 }
type Rect struct{ W, H float64 }

func area(s interface{}) float64 {
	switch v := s.(type) {
	case Circle:
		return 3 * v.R * v.R
	case *Rect:
		return v.W * v.H
	case nil:
		return -1
	default:
		return 0
	}
}

func main() {
	fmt.Println(area(Circle{1}), area(&Rect{2, 3}), area(Rect{2, 3}), area(nil))
	var x interface{} = Circle{2}
	c, ok := x.(Circle)
	_, ok2 := x.(*Circle)
	fmt.Println(c.R, ok, ok2)
}

// Output:
// 3 6 0 -1
// 2 true false
