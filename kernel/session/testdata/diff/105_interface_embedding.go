package main

import (
	"fmt"
	"strings"
)

func main() {
	var r interface{ Len() int } = strings.NewReader("abc")
	fmt.Println(r.Len())
}

// Output:
// 3
