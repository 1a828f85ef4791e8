package main

import (
	"fmt"
	"math"
	"strconv"
)

func main() {
	fmt.Println(strconv.FormatFloat(math.Pi, 'f', 3, 64), strconv.FormatFloat(1e-7, 'g', -1, 64))
	fmt.Println(7/2.0, float32(1)/3, 1e6, 1e-5, 100000000.0, 123456789.0)
	fmt.Println(math.Sqrt(2), math.Floor(-1.5), math.Round(2.5), math.Trunc(-2.7))
	fmt.Println(int64(math.MaxInt32)+1, -5>>1)
}

// Output:
// 3.142 1e-07
// 3.5 0.33333334 1e+06 1e-05 1e+08 1.23456789e+08
// 1.4142135623730951 -2 3 -2
// 2147483648 -3
