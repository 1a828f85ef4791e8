package main

import (
	"fmt"
	"slices"
	"strings"
)

func main() {
	w := []string{"Banana", "apple", "cherry"}
	slices.SortFunc(w, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	fmt.Println(w)
}

// Output:
// [apple Banana cherry]
