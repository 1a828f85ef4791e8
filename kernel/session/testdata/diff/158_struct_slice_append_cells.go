package main

import "fmt"

type T struct{ N int }

func main() {
	ts := []T{}
	// cell
	ts = append(ts, T{1}, T{2})
	// cell
	fmt.Println(len(ts), ts[1].N)
}

// Output:
// 2 2
