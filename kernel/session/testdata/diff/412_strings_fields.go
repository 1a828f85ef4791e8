package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	s := "  The quick  brown fox  "
	fmt.Printf("%q\n", strings.Fields(s))
	fmt.Println(strings.Title("x"), strings.ToTitle("go"), strings.Count("cheese", "e"))
	fmt.Println(strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, "Hello World"))
	r := strings.NewReplacer("a", "1", "b", "2")
	fmt.Println(r.Replace("abcab"), strings.EqualFold("Go", "GO"))
	fmt.Println(strings.SplitN("a,b,c,d", ",", 2), strings.TrimFunc("xxhixx", func(r rune) bool { return r == 'x' }))
}

// Output:
// ["The" "quick" "brown" "fox"]
// X GO 3
// hELLO wORLD
// 12c12 true
// [a b,c,d] hi
