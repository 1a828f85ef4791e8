package main

import "fmt"

func main() {
	s := [][]int{{1, 2}, {3}}
	fmt.Println(s, len(s[0]))
}

// Output:
// [[1 2] [3]] 2
