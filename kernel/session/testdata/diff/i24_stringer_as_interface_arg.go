package main

import (
	"fmt"
	"strconv"
)

// yaegi corpus issue-435: a function's first variable, of a type with
// String, passed as interface{} to a function that prints it. The
// interpreter reads it back from the callee's frame at the caller's slot
// index; tick's function entry must not shift that slot.

type Foo int

func (f Foo) String() string {
	return "foo-" + strconv.Itoa(int(f))
}

func print1(arg interface{}) {
	fmt.Println(arg)
}

func show() {
	var arg Foo = 3
	print1(arg)
	var f = print1
	f(arg)
}

func main() {
	show()
}

// Output:
// foo-3
// foo-3
