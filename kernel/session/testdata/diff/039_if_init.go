package main

import (
	"fmt"
	"strconv"
)

func main() {
	if n, err := strconv.Atoi("12"); err == nil {
		fmt.Println(n + 1)
	}
}

// Output:
// 13
