package main

import (
	"fmt"
	"strings"
)

type Builder struct {
	parts []string
}

func (b *Builder) Add(s string) *Builder {
	b.parts = append(b.parts, s)
	return b
}

func (b *Builder) String() string { return strings.Join(b.parts, " ") }

func NewBuilder() *Builder { return &Builder{} }

func main() {
	b := NewBuilder().Add("a").Add("b").Add("c")
	fmt.Println(b.String(), len(b.parts))
	fmt.Println(b)
}

// Output:
// a b c 3
// a b c
