package main

import (
	"fmt"
	"strings"
)

func main() {
	var b strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "%d;", i)
	}
	fmt.Println(b.String())
}

// Output:
// 0;1;2;
