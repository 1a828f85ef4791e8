package main

import "fmt"

func collect() []func() int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		x := i * 10
		fs = append(fs, func() int { return x })
	}
	return fs
}

func main() {
	for _, f := range collect() {
		fmt.Print(f(), ",")
	}
	fmt.Println()
	var gs []func() int
	for _, v := range []int{1, 2, 3} {
		y := v
		gs = append(gs, func() int { return y })
	}
	for _, g := range gs {
		fmt.Print(g(), ",")
	}
	fmt.Println()
}

// Output:
// 0,10,20,
// 1,2,3,
