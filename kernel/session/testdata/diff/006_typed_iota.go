package main

import "fmt"

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

func main() {
	fmt.Println(Sunday, Monday, Tuesday)
}

// Output:
// 0 1 2
