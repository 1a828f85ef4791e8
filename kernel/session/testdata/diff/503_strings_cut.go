package main

import (
	"cmp"
	"fmt"
	"strings"
)

func main() {
	k, v, ok := strings.Cut("key=value", "=")
	fmt.Println(k, v, ok)
	rest, had := strings.CutPrefix("prefix-body", "prefix-")
	fmt.Println(rest, had)
	fmt.Println(cmp.Or("", "fallback"), cmp.Or(0, 0, 7), cmp.Compare(2, 3))
	fmt.Println(strings.ContainsAny("hello", "xyz"), strings.ContainsRune("hello", 'l'), strings.IndexByte("abc", 'c'))
}

// Output:
// key value true
// body true
// fallback 7 -1
// false true 2
