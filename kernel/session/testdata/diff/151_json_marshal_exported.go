package main

import (
	"encoding/json"
	"fmt"
)

type Item struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func main() {
	b, err := json.Marshal(Item{"pen", 3})
	fmt.Println(string(b), err)
}

// Output:
// {"name":"pen","count":3} <nil>
