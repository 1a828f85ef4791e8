package main

import (
	"encoding/json"
	"fmt"
)

func main() {
	var m map[string]any
	err := json.Unmarshal([]byte(`{"a": 1, "b": [true]}`), &m)
	fmt.Println(m["a"], m["b"], err)
}

// Output:
// 1 [true] <nil>
