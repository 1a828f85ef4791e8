package main

import (
	"fmt"
	"unicode/utf8"
)

func main() {
	s := "héllo, 世界"
	fmt.Println(len(s), utf8.RuneCountInString(s))
	for i, r := range s {
		if r > 127 {
			fmt.Print(i, ":", string(r), " ")
		}
	}
	fmt.Println("|")
	b := []byte(s)
	rs := []rune(s)
	fmt.Println(len(b), len(rs), string(rs[7:]), s[1:3] == "é")
	fmt.Printf("%c %U %x\n", rs[1], rs[7], s[:2])
}

// Output:
// 14 9
// 1:é 8:世 11:界 |
// 14 9 世界 true
// é U+4E16 68c3
