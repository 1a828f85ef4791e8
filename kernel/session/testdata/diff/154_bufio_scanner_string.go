package main

import (
	"bufio"
	"fmt"
	"strings"
)

func main() {
	sc := bufio.NewScanner(strings.NewReader("a\nb\nc"))
	n := 0
	for sc.Scan() {
		n++
		fmt.Println(sc.Text())
	}
	fmt.Println(n)
}

// Output:
// a
// b
// c
// 3
