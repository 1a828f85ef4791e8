package main

import (
	"fmt"
	"sort"
)

type kv struct {
	k string
	v int
}

func main() {
	m := map[string]int{"a": 3, "b": 1, "c": 2, "d": 3}
	var xs []kv
	for k, v := range m {
		xs = append(xs, kv{k, v})
	}
	// cell
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v > xs[j].v
		}
		return xs[i].k < xs[j].k
	})
	fmt.Println(xs)
	fmt.Printf("%v %+v\n", xs[0], xs[1])
}

// Output:
// [{a 3} {d 3} {c 2} {b 1}]
// {a 3} {k:d v:3}
