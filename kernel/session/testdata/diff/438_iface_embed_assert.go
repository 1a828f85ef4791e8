package main

import (
	"fmt"
	"io"
	"strings"
)

type Shape interface {
	Area() float64
}

type Named interface {
	Shape
	Name() string
}

type Sq struct{ s float64 }

func (q Sq) Area() float64 { return q.s * q.s }
func (q Sq) Name() string  { return "square" }

func main() {
	var sh Shape = Sq{2}
	if n, ok := sh.(Named); ok {
		fmt.Println(n.Name(), n.Area())
	}
	_, isW := sh.(io.Writer)
	fmt.Println(isW)
	var r io.Reader = strings.NewReader("abc")
	data, _ := io.ReadAll(r)
	fmt.Println(string(data))
}

// Output:
// square 4
// false
// abc
