package main

import "fmt"

func main() {
	fmt.Printf("%d %5.2f %q %x %08b %t\n", 42, 3.14159, "hi", 255, 5, true)
}

// Output:
// 42  3.14 "hi" ff 00000101 true
