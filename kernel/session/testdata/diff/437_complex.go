package main

import (
	"fmt"
	"math/cmplx"
)

func main() {
	c := complex(3, 4)
	fmt.Println(c, real(c), imag(c), cmplx.Abs(c))
	fmt.Printf("%.2f\n", c*c)
	var u uint8 = 250
	u += 10
	var i8 int8 = 127
	i8++
	big := uint32(1<<32 - 1)
	big++
	fmt.Println(u, i8, big)
}

// Output:
// (3+4i) 3 4 5
// (-7.00+24.00i)
// 4 -128 0
