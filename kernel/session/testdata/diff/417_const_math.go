package main

import (
	"fmt"
	"math"
)

const big = 1 << 62

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

func main() {
	fmt.Println(big/(1<<60), KB, MB, GB)
	fmt.Println(math.MaxInt64, math.Inf(1), -math.MaxFloat32 < 0, math.NaN() == math.NaN())
	var f float32 = 0.1
	fmt.Println(f, float64(f), 0.1+0.2)
	fmt.Printf("%.3e %g %v\n", 123456.789, 1e21, 1e20)
	x := 7
	fmt.Println(x/2, x%3, -7/2, -7%3, 7>>1, 1<<x, ^x, x&^3)
}

// Output:
// 4 1024 1048576 1073741824
// 9223372036854775807 +Inf true false
// 0.1 0.10000000149011612 0.3
// 1.235e+05 1e+21 1e+20
// 3 1 -3 -1 3 128 -8 4
