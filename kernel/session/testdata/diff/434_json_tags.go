package main

import (
	"encoding/json"
	"fmt"
)

type Item struct {
	Name  string   `json:"name"`
	Price float64  `json:"price,omitempty"`
	Tags  []string `json:"tags"`
}

func main() {
	b, err := json.Marshal(Item{Name: "pen", Tags: []string{"a"}})
	fmt.Println(string(b), err)
	var it Item
	err = json.Unmarshal([]byte(`{"name":"cup","price":2.5,"tags":["x","y"]}`), &it)
	fmt.Println(it.Name, it.Price, it.Tags, err)
	var anyv map[string]interface{}
	json.Unmarshal([]byte(`{"a":1,"b":[true,null]}`), &anyv)
	fmt.Println(anyv["a"], anyv["b"])
}

// Output:
// {"name":"pen","tags":["a"]} <nil>
// cup 2.5 [x y] <nil>
// 1 [true <nil>]
