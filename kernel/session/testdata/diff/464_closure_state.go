package main

import "fmt"

func main() {
	total := 0
	add := func(n int) { total += n }
	for i := 1; i <= 4; i++ {
		add(i)
	}
	fmt.Println(total)
	// cell
	fibgen := func() func() int {
		a, b := 0, 1
		return func() int {
			r := a
			a, b = b, a+b
			return r
		}
	}
	f := fibgen()
	for i := 0; i < 8; i++ {
		fmt.Print(f(), ",")
	}
	fmt.Println()
	// cell
	compose := func(fs ...func(int) int) func(int) int {
		return func(x int) int {
			for _, f := range fs {
				x = f(x)
			}
			return x
		}
	}
	inc := func(x int) int { return x + 1 }
	dbl := func(x int) int { return x * 2 }
	fmt.Println(compose(inc, dbl, inc)(3))
}

// Output:
// 10
// 0,1,1,2,3,5,8,13,
// 9
