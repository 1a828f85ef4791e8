package main

import (
	"fmt"
	"strings"
)

type Path []string

func (p Path) String() string { return strings.Join(p, "/") }

func (p *Path) Push(s string) { *p = append(*p, s) }

type Temp float64

func (t Temp) F() Temp { return t*9/5 + 32 }

func main() {
	var p Path
	p.Push("usr")
	p.Push("bin")
	fmt.Println(p, len(p))
	fmt.Println(Temp(100).F())
	var s fmt.Stringer = p
	fmt.Println(s.String())
}

// Output:
// usr/bin 2
// 212
// usr/bin
