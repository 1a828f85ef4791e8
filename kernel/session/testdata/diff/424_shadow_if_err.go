package main

import (
	"fmt"
	"strconv"
)

func parse(xs []string) (sum int, err error) {
	for _, x := range xs {
		n, err := strconv.Atoi(x)
		if err != nil {
			return sum, fmt.Errorf("parse %q: %w", x, err)
		}
		sum += n
	}
	return
}

func main() {
	fmt.Println(parse([]string{"1", "2", "3"}))
	fmt.Println(parse([]string{"1", "x"}))
	if v, err := strconv.ParseFloat("2.5", 64); err == nil {
		fmt.Println(v * 2)
	}
}

// Output:
// 6 <nil>
// 1 parse "x": strconv.Atoi: parsing "x": invalid syntax
// 5
