package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s *Sq) Area() float64 {
	if s == nil {
		return 0
	}
	return s.S * s.S
}

func main() {
	var s Shape
	fmt.Println(s == nil)
	var p *Sq
	s = p
	fmt.Println(s == nil, s.Area())
	s = &Sq{3}
	fmt.Println(s.Area())
	shapes := map[string]Shape{"a": &Sq{1}}
	if sh, ok := shapes["b"]; !ok {
		fmt.Println("missing", sh == nil)
	}
}

// Output:
// true
// false 0
// 9
// missing true
