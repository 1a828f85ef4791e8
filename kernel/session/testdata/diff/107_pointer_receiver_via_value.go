package main

import "fmt"

type C struct{ n int }

func (c *C) Inc() { c.n++ }

func main() {
	var c C
	c.Inc()
	c.Inc()
	fmt.Println(c.n)
}

// Output:
// 2
