package main

import "fmt"

type Animal interface {
	Sound() string
	Name() string
}

type base struct{ name string }

func (b base) Name() string { return b.name }

type Dog struct {
	base
	breed string
}

func (d Dog) Sound() string { return "woof" }

// cell
func describe(a Animal) string { return a.Name() + " says " + a.Sound() }

func main() {
	d := Dog{base{"rex"}, "lab"}
	fmt.Println(describe(d))
	// cell
	var as []Animal
	as = append(as, d, Dog{base{"fido"}, "pug"})
	for _, a := range as {
		fmt.Println(a.Name(), a.(Dog).breed)
	}
}

// Output:
// rex says woof
// rex lab
// fido pug
