package main

import "fmt"

type Acc struct{ n int }

func (a *Acc) Add(k int) { a.n += k }

func main() {
	a := &Acc{}
	add := a.Add
	add(3)
	add(4)
	fmt.Println(a.n)
}

// Output:
// 7
