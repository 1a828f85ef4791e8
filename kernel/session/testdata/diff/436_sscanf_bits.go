package main

import (
	"fmt"
	"math/bits"
	"strconv"
)

func main() {
	var a, b int
	var s string
	n, err := fmt.Sscanf("12 34 go", "%d %d %s", &a, &b, &s)
	fmt.Println(n, err, a+b, s)
	fmt.Println(bits.OnesCount(255), bits.LeadingZeros64(1), bits.Reverse8(1))
	fmt.Println(strconv.FormatInt(255, 2), strconv.Quote("a\tb"))
	v, err := strconv.ParseInt("ff", 16, 64)
	fmt.Println(v, err)
	_, err = strconv.Atoi("12a")
	fmt.Println(err)
}

// Output:
// 3 <nil> 46 go
// 8 63 128
// 11111111 "a\tb"
// 255 <nil>
// strconv.Atoi: parsing "12a": invalid syntax
