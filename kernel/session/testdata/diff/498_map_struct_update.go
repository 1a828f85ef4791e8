package main

import "fmt"

type Stat struct {
	N   int
	Sum float64
}

func main() {
	stats := map[string]*Stat{}
	data := []struct {
		k string
		v float64
	}{{"a", 1}, {"b", 2}, {"a", 3}}
	for _, d := range data {
		s, ok := stats[d.k]
		if !ok {
			s = &Stat{}
			stats[d.k] = s
		}
		s.N++
		s.Sum += d.v
	}
	fmt.Println(*stats["a"], *stats["b"])
	vals := map[string]Stat{"x": {1, 2}}
	st := vals["x"]
	st.N = 10
	vals["x"] = st
	fmt.Println(vals)
}

// Output:
// {2 4} {1 2}
// map[x:{10 2}]
