package main

import (
	"cmp"
	"fmt"
)

func main() {
	fmt.Println(cmp.Compare(1, 2), cmp.Compare("b", "a"), cmp.Less(1.5, 2.5))
}

// Output:
// -1 1 true
