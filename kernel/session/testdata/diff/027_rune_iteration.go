package main

import "fmt"

func main() {
	for i, r := range "héllo" {
		fmt.Print(i, ":", string(r), ";")
	}
	fmt.Println()
}

// Output:
// 0:h;1:é;3:l;4:l;5:o;
