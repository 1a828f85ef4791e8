package main

import "fmt"

func main() {
	base := 10
	var scaled = base * 3
	fmt.Println(scaled)
}

// Output:
// 30
