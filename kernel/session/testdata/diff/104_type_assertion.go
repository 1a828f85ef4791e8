package main

import "fmt"

func main() {
	var i any = "hello"
	s := i.(string)
	fmt.Println(s, len(s))
}

// Output:
// hello 5
