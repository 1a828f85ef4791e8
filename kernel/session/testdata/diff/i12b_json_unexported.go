package main

import (
	"encoding/json"
	"fmt"
)

type Inner struct {
	A      int `json:"a"`
	secret string
	Tags   []string `json:"tags,omitempty"`
}

type Outer struct {
	Name   string
	In     Inner
	List   []*Inner
	ByKey  map[string]Inner
	Any    any
	hidden int
}

type Node struct {
	V    int
	Next *Node
}

func main() {
	o := Outer{Name: "x", In: Inner{1, "s", nil}, List: []*Inner{{2, "t", []string{"q"}}, nil},
		ByKey: map[string]Inner{"k": {3, "u", nil}}, Any: Inner{4, "v", nil}, hidden: 9}
	b, err := json.Marshal(o)
	fmt.Println(string(b), err)
	// cell
	b, _ = json.MarshalIndent(Inner{5, "w", []string{"a"}}, "", "  ")
	fmt.Println(string(b))
	b, _ = json.Marshal(&Node{1, &Node{2, nil}})
	fmt.Println(string(b))
	var back Inner
	err = json.Unmarshal([]byte(`{"a":7,"secret":"z","tags":["r"]}`), &back)
	fmt.Printf("%v %+v\n", err, back)
}

// Output:
// {"Name":"x","In":{"a":1},"List":[{"a":2,"tags":["q"]},null],"ByKey":{"k":{"a":3}},"Any":{"a":4}} <nil>
// {
//   "a": 5,
//   "tags": [
//     "a"
//   ]
// }
// {"V":1,"Next":{"V":2,"Next":null}}
// <nil> {A:7 secret: Tags:[r]}
