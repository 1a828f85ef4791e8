package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

type Counter struct{ n int }

func (c *Counter) Add(k int) int { c.n += k; return c.n }
func (c Counter) Get() int       { return c.n }
func (c Counter) Sum(xs ...int) int {
	t := c.n
	for _, x := range xs {
		t += x
	}
	return t
}

// cell

func apply(fs []func(Counter) int, c Counter) (out []int) {
	for _, f := range fs {
		out = append(out, f(c))
	}
	return out
}

func main() {
	add := (*Counter).Add
	c := &Counter{}
	add(c, 2)
	fmt.Println(add(c, 3), (*Counter).Get(c), Counter.Get(*c))
	// cell
	fmt.Println(apply([]func(Counter) int{Counter.Get, func(c Counter) int { return -c.n }}, *c))
	sum := Counter.Sum
	fmt.Println(sum(*c, 1, 2), sum(*c, []int{10, 20}...))
	// cell
	write := (*strings.Builder).WriteString
	var b strings.Builder
	write(&b, "method ")
	write(&b, "expressions")
	fmt.Println(b.String(), (*strings.Builder).Len(&b))
	str := time.Duration.String
	fmt.Println(str(1500 * time.Millisecond))
	xs := sort.IntSlice{3, 1, 2}
	fmt.Println(sort.IntSlice.Len(xs))
}

// Output:
// 5 5 5
// [5 -5]
// 8 35
// method expressions 18
// 1.5s
// 3
