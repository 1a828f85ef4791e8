package main

import "fmt"

type codeErr int

func (c codeErr) Error() string { return fmt.Sprint("code ", int(c)) }

func main() {
	var e error = codeErr(5)
	fmt.Println(e)
}

// Output:
// code 5
