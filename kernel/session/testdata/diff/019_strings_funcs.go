package main

import (
	"fmt"
	"strings"
)

func main() {
	fmt.Println(strings.ToUpper("go"), strings.Repeat("ab", 3), strings.Split("a,b,c", ","))
	fmt.Println(strings.Fields(" x  y "), strings.TrimSpace("  t "), strings.Contains("seafood", "foo"))
}

// Output:
// GO ababab [a b c]
// [x y] t true
