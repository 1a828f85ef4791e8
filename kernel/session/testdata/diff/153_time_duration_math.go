package main

import (
	"fmt"
	"time"
)

func main() {
	d := 90 * time.Minute
	fmt.Println(d, d.Hours(), time.Duration(1500)*time.Millisecond)
}

// Output:
// 1h30m0s 1.5 1.5s
