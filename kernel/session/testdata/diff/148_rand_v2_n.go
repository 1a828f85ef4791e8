package main

import (
	"fmt"
	"math/rand/v2"
)

func main() {
	ok := true
	for i := 0; i < 100; i++ {
		if n := rand.N(10); n < 0 || n >= 10 {
			ok = false
		}
	}
	fmt.Println(ok)
}

// Output:
// true
