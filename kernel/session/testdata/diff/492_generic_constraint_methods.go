package main

import (
	"fmt"
	"strconv"
)

type Shower interface {
	Show() string
}

type Num int

func (n Num) Show() string { return "#" + strconv.Itoa(int(n)) }

func ShowAll[T Shower](xs []T) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, x.Show())
	}
	return out
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func MakePairs[K comparable, V any](m map[K]V, keys []K) []Pair[K, V] {
	var ps []Pair[K, V]
	for _, k := range keys {
		ps = append(ps, Pair[K, V]{k, m[k]})
	}
	return ps
}

func main() {
	fmt.Println(ShowAll([]Num{1, 2}))
	var ps []Pair[string, int]
	ps = MakePairs(map[string]int{"a": 1, "b": 2}, []string{"b", "a"})
	fmt.Println(ps, ps[0].Key)
}

// Output:
// [#1 #2]
// [{b 2} {a 1}] b
