package main

import "fmt"

func zero(a [3]int) { a[0] = 0 }

func zeroP(a *[3]int) { a[0] = 0 }

func main() {
	a := [3]int{1, 2, 3}
	zero(a)
	fmt.Println(a)
	zeroP(&a)
	fmt.Println(a, len(a))
	m := map[string][2]int{"k": {1, 2}}
	v := m["k"]
	v[0] = 7
	fmt.Println(m, v)
	grid := [2][2]string{{"a", "b"}, {"c", "d"}}
	g2 := grid
	g2[1][1] = "z"
	fmt.Println(grid, g2)
}

// Output:
// [1 2 3]
// [0 2 3] 3
// map[k:[1 2]] [7 2]
// [[a b] [c d]] [[a b] [c z]]
