package main

import (
	"fmt"
	"strconv"
)

func main() {
	n, err := strconv.Atoi("42")
	fmt.Println(n, err)
	_, err = strconv.Atoi("x")
	fmt.Println(err)
	fmt.Println(strconv.Itoa(7) + strconv.FormatFloat(1.5, 'f', 2, 64))
}

// Output:
// 42 <nil>
// strconv.Atoi: parsing "x": invalid syntax
// 71.50
