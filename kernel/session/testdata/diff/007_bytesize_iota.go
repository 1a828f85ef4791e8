package main

import "fmt"

type ByteSize float64

const (
	_           = iota
	KB ByteSize = 1 << (10 * iota)
	MB
)

func main() {
	fmt.Println(KB, MB)
}

// Output:
// 1024 1.048576e+06
