package main

import "fmt"

func main() {
	i := 0
loop:
	fmt.Println(i)
	i++
	if i < 3 {
		goto loop
	}
	fmt.Println("done")
}

// Output:
// 0
// 1
// 2
// done
