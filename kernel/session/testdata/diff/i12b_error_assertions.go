package main

import (
	"errors"
	"fmt"
)

type Code struct {
	N   int
	Why string
}

func (c Code) Error() string { return fmt.Sprintf("code %d: %s", c.N, c.Why) }

type Missing struct{ Name string }

func (m *Missing) Error() string { return m.Name + " missing" }

func kind(x any) string {
	switch v := x.(type) {
	case nil:
		return "nil"
	case string:
		return "string " + v
	case error:
		return "error " + v.Error()
	case fmt.Stringer:
		return "stringer " + v.String()
	default:
		return fmt.Sprintf("other %v", v)
	}
}

func isError(x any) bool {
	_, ok := x.(error)
	return ok
}

func main() {
	vals := []any{Code{1, "bad"}, &Missing{"cfg"}, errors.New("plain"), 3, "s", nil}
	for _, v := range vals {
		fmt.Println(kind(v), isError(v))
	}
	// cell
	var x any = Code{2, "top"}
	if err, ok := x.(error); ok {
		fmt.Println("top level:", err)
	}
	fmt.Println(x.(error).Error())
	switch e := x.(type) {
	case error:
		fmt.Println("switch:", e)
	}
}

// Output:
// error code 1: bad true
// error cfg missing true
// error plain true
// other 3 false
// string s false
// nil false
// top level: code 2: top
// code 2: top
// switch: code 2: top
