package main

import "fmt"

func main() {
	fmt.Println(fmt.Sprintf("[%-5s][%5s]", "ab", "cd"))
}

// Output:
// [ab   ][   cd]
