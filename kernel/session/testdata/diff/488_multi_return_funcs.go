package main

import (
	"fmt"
	"strings"
)

func divmod(a, b int) (int, int) { return a / b, a % b }

func split(s string) (head, tail string) {
	i := strings.Index(s, ":")
	if i < 0 {
		return s, ""
	}
	head, tail = s[:i], s[i+1:]
	return
}

func pass(a, b int) (int, int) { return divmod(a, b) }

func main() {
	q, r := divmod(17, 5)
	fmt.Println(q, r)
	fmt.Println(divmod(9, 4))
	fmt.Println(split("k:v"))
	h, _ := split("solo")
	fmt.Println(h)
	fmt.Println(pass(10, 3))
}

// Output:
// 3 2
// 2 1
// k v
// solo
// 3 1
