package main

import "fmt"

func main() {
	x := 1
	{
		x := 2
		fmt.Println(x)
	}
	fmt.Println(x)
}

// Output:
// 2
// 1
