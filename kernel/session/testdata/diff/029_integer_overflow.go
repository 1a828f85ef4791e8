package main

import "fmt"

func main() {
	var u uint8 = 250
	u += 10
	var i int8 = 127
	i++
	fmt.Println(u, i)
}

// Output:
// 4 -128
