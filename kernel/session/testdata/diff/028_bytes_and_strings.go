package main

import "fmt"

func main() {
	b := []byte("abc")
	b[0] = 'A'
	fmt.Println(string(b), len("héllo"), []rune("héllo")[1] == 'é')
}

// Output:
// Abc 6 true
