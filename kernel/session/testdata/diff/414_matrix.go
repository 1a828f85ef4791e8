package main

import "fmt"

func matmul(a, b [][]float64) [][]float64 {
	n, m, p := len(a), len(b), len(b[0])
	c := make([][]float64, n)
	for i := range c {
		c[i] = make([]float64, p)
		for j := 0; j < p; j++ {
			for k := 0; k < m; k++ {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func main() {
	a := [][]float64{{1, 2}, {3, 4}}
	b := [][]float64{{5, 6}, {7, 8}}
	fmt.Println(matmul(a, b))
	var grid [3][3]int
	for i := range grid {
		for j := range grid[i] {
			grid[i][j] = i * j
		}
	}
	fmt.Println(grid)
}

// Output:
// [[19 22] [43 50]]
// [[0 0 0] [0 1 2] [0 2 4]]
