package main

import (
	"errors"
	"fmt"
	"strings"
)

// deferred closures in loops see their own iteration's variables (Go 1.22)
func counts() {
	for i := 0; i < 3; i++ {
		defer func() { fmt.Print(i) }()
	}
}

func ranged() {
	for k, s := range []string{"a", "b", "c"} {
		defer func() { fmt.Print(" ", k, s) }()
	}
}

func nested() {
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			if (i+j)%2 == 0 {
				defer func() { fmt.Print(i, j, ";") }()
			}
		}
	}
}

// a deferred closure modifies a named result, with arguments evaluated at the defer
func doubled() (n int) {
	for i := 1; i <= 2; i++ {
		defer func(add int) { n = n*2 + add + i }(10 * i)
	}
	n = 1
	return 3
}

// a variable of the body assigned after the defer: the closure sees the change
func changed() {
	for i := 0; i < 2; i++ {
		x := i
		defer func() { fmt.Print(" ", x) }()
		x *= 10
	}
}

// recover in a deferred literal keeps working
func safe(vals []int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	for _, v := range vals {
		defer func() { fmt.Print("cleanup", v, " ") }()
	}
	if len(vals) < 5 {
		panic(fmt.Sprintf("only %d values", len(vals)))
	}
	return errors.New("enough")
}

func main() {
	counts()
	fmt.Println()
	ranged()
	fmt.Println()
	// cell
	nested()
	fmt.Println()
	fmt.Println(doubled())
	changed()
	fmt.Println()
	// cell
	fmt.Println(safe([]int{1, 2}))
	var b strings.Builder
	f := func() {
		for _, w := range strings.Fields("x y z") {
			defer func() { b.WriteString(w) }()
		}
	}
	f()
	fmt.Println(b.String())
}

// Output:
// 210
//  2c 1b 0a
// 1 1;0 0;
// 67
//  10 0
// cleanup2 cleanup1 recovered: only 2 values
// zyx
