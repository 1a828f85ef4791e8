package main

import "fmt"

func count() int {
	n := 0
again:
	n++
	if n < 5 {
		goto again
	}
	return n
}

func main() {
	fmt.Println(count())
}

// Output:
// 5
