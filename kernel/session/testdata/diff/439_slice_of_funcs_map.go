package main

import "fmt"

type op func(int, int) int

func main() {
	ops := map[string]op{
		"add": func(a, b int) int { return a + b },
		"mul": func(a, b int) int { return a * b },
	}
	for _, k := range []string{"add", "mul"} {
		fmt.Print(k, "=", ops[k](3, 4), ";")
	}
	fmt.Println("|")
	apply := func(f op, xs ...int) int {
		r := xs[0]
		for _, x := range xs[1:] {
			r = f(r, x)
		}
		return r
	}
	fmt.Println(apply(ops["mul"], 1, 2, 3, 4))
}

// Output:
// add=7;mul=12;|
// 24
