package main

import "fmt"

func main() {
	x := 0b1100
	fmt.Println(x&0b1010, x|1, x^0b1111, x<<2, x>>1, x&^0b0100)
}

// Output:
// 8 13 3 48 6 8
