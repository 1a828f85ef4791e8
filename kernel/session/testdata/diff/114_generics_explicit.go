package main

import "fmt"

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	fmt.Println(Map[int, string]([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 10) }))
}

// Output:
// [10 20]
