package main

import "fmt"

func main() {
	var x any = 3
	n, ok := x.(int)
	s, ok2 := x.(string)
	fmt.Println(n, ok, s == "", ok2)
}

// Output:
// 3 true true false
