package main

import "fmt"

func main() {
	for _, v := range []any{1, "s", 2.5, nil} {
		switch x := v.(type) {
		case int:
			fmt.Println("int", x)
		case string:
			fmt.Println("string", x)
		case nil:
			fmt.Println("nil")
		default:
			fmt.Println("other", x)
		}
	}
}

// Output:
// int 1
// string s
// other 2.5
// nil
