package main

import "fmt"

type Matrix [2][2]int

func (m Matrix) Mul(o Matrix) Matrix {
	var r Matrix
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			for k := 0; k < 2; k++ {
				r[i][j] += m[i][k] * o[k][j]
			}
		}
	}
	return r
}

func main() {
	f := Matrix{{1, 1}, {1, 0}}
	r := Matrix{{1, 0}, {0, 1}}
	for i := 0; i < 10; i++ {
		r = r.Mul(f)
	}
	fmt.Println(r, r[0][1])
}

// Output:
// [[89 55] [55 34]] 55
