package main

import (
	"fmt"
	"sort"
)

type Person struct {
	Name string
	Age  int
}

func main() {
	ps := []Person{{"A", 30}, {"B", 20}, {"C", 25}}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Age < ps[j].Age })
	fmt.Println(ps)
}

// Output:
// [{B 20} {C 25} {A 30}]
