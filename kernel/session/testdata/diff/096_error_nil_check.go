package main

import (
	"fmt"
	"strconv"
)

func main() {
	for _, s := range []string{"1", "x"} {
		if _, err := strconv.Atoi(s); err != nil {
			fmt.Println("bad:", s)
		} else {
			fmt.Println("ok:", s)
		}
	}
}

// Output:
// ok: 1
// bad: x
