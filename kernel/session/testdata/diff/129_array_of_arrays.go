package main

import "fmt"

func main() {
	var grid [2][3]int
	grid[1][2] = 5
	fmt.Println(grid)
}

// Output:
// [[0 0 0] [0 0 5]]
