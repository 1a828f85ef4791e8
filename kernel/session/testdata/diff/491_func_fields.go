package main

import "fmt"

type Handler struct {
	Name string
	Fn   func(int) int
}

type Registry struct {
	hs map[string]Handler
}

func (r *Registry) Add(name string, f func(int) int) {
	if r.hs == nil {
		r.hs = map[string]Handler{}
	}
	r.hs[name] = Handler{name, f}
}

func main() {
	var r Registry
	for _, k := range []int{1, 2, 3} {
		r.Add(fmt.Sprint("x", k), func(v int) int { return v * k })
	}
	fmt.Println(r.hs["x1"].Fn(10), r.hs["x2"].Fn(10), r.hs["x3"].Fn(10))
}

// Output:
// 10 20 30
