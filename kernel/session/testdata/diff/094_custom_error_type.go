package main

import "fmt"

type MyErr struct{ Code int }

func (e *MyErr) Error() string { return fmt.Sprintf("code %d", e.Code) }

func fail() error { return &MyErr{404} }

func main() {
	err := fail()
	fmt.Println(err)
}

// Output:
// code 404
