package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

type Circ struct{ R float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func (c Circ) Area() float64 { return 3 * c.R * c.R }

func main() {
	shapes := []Shape{Sq{2}, Circ{1}}
	t := 0.0
	for _, s := range shapes {
		t += s.Area()
	}
	fmt.Println(t)
}

// Output:
// 7
