package main

import "fmt"

func join(sep string, parts ...string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += sep
		}
		out += p
	}
	return out
}

func main() {
	xs := []string{"a", "b", "c"}
	fmt.Println(join("-", xs...), join("+"), join(",", "x"))
	args := []interface{}{1, "two", 3.0}
	fmt.Println(args...)
	fmt.Printf("%v|%v|%v\n", args...)
}

// Output:
// a-b-c  x
// 1 two 3
// 1|two|3
