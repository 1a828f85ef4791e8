package main

import "fmt"

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

func (c Counter) Get() int { return c.n }

func main() {
	c := &Counter{}
	c.Inc()
	v := *c
	get2 := v.Get
	c.Inc()
	fmt.Println(c.n, get2(), c.Get())
}

// Output:
// 2 1 2
