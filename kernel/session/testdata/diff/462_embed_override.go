package main

import "fmt"

type Base struct{ ID int }

func (b Base) Describe() string { return fmt.Sprintf("base %d", b.ID) }
func (b Base) Kind() string     { return "base" }

type Derived struct {
	Base
	Name string
}

func (d Derived) Describe() string { return "derived " + d.Name + " / " + d.Base.Describe() }

type Describer interface{ Describe() string }

func main() {
	d := Derived{Base{7}, "x"}
	fmt.Println(d.Describe())
	fmt.Println(d.Kind(), d.ID)
	var ds []Describer = []Describer{d, d.Base}
	for _, x := range ds {
		fmt.Println(x.Describe())
	}
}

// Output:
// derived x / base 7
// base 7
// derived x / base 7
// base 7
