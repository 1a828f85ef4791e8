package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(math.Sqrt(2), math.Floor(-1.5), math.MaxInt8, math.Inf(1))
	fmt.Printf("%.4f\n", math.Pi)
}

// Output:
// 1.4142135623730951 -2 127 +Inf
// 3.1416
