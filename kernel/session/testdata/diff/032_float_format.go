package main

import "fmt"

func main() {
	fmt.Println(1.0/3, 2.5e10, float32(0.1))
}

// Output:
// 0.3333333333333333 2.5e+10 0.1
