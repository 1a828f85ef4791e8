package main

import "fmt"

func main() {
	fmt.Println(7/2, -7/2, 7%3, -7%3, 7.0/2)
}

// Output:
// 3 -3 1 -1 3.5
