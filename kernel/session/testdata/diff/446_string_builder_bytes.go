package main

import (
	"fmt"
	"strings"
)

func main() {
	var sb strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&sb, "%d-", i)
	}
	sb.WriteByte('!')
	sb.WriteRune('é')
	fmt.Println(sb.String(), sb.Len())
	b := []byte("hello")
	b[0] = 'H'
	fmt.Println(string(b), string(b[1:3]), strings.Repeat("ab", 3))
	fmt.Println(strings.Compare("a", "b"), strings.Index("chicken", "ken"), strings.LastIndex("go gopher", "go"))
}

// Output:
// 0-1-2-!é 9
// Hello el ababab
// -1 4 3
