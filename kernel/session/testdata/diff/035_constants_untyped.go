package main

import "fmt"

func main() {
	const big = 1 << 40
	fmt.Println(big>>38, big/1e10)
}

// Output:
// 4 109.9511627776
