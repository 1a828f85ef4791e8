package main

import "fmt"

func main() {
	c := complex(1, 2)
	fmt.Println(c*c, real(c), imag(c))
}

// Output:
// (-3+4i) 1 2
