package main

import "fmt"

func main() {
	p := struct {
		Name string
		Age  int
	}{"Ann", 30}
	fmt.Println(p.Name, p.Age)
}

// Output:
// Ann 30
