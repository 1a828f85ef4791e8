package main

import "fmt"

type Weekday int

func (d Weekday) String() string { return [...]string{"Sun", "Mon", "Tue"}[d] }

type Name struct{ S string }

func (n *Name) String() string { return "N:" + n.S }

func main() {
	d := Weekday(2)
	fmt.Printf("%v %d %s %x|%#v|%5d|%q\n", d, d, d, d, d, d, d)
	n := &Name{"a"}
	fmt.Printf("%v %T %+v %d\n", n, n, n, n)
}

// Output:
// Tue 2 Tue 547565|2|    2|"Tue"
// N:a *main.Name N:a &{%!d(string=a)}
