package main

import "fmt"

type Acc struct {
	Name string
	Bal  float64
}

func main() {
	accs := []Acc{{"a", 10}, {"b", 20}}
	for _, a := range accs {
		a.Bal *= 2
	}
	fmt.Println(accs)
	for i := range accs {
		accs[i].Bal *= 2
	}
	fmt.Println(accs)
	ptrs := []*Acc{&accs[0], &accs[1]}
	for _, p := range ptrs {
		p.Bal++
	}
	fmt.Println(accs[0].Bal, accs[1].Bal)
	m := map[string][]int{"x": {1}}
	m["x"] = append(m["x"], 2)
	s := m["x"]
	s[0] = 99
	fmt.Println(m)
}

// Output:
// [{a 10} {b 20}]
// [{a 20} {b 40}]
// 21 41
// map[x:[99 2]]
