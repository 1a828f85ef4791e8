package main

import (
	"errors"
	"fmt"
)

func main() {
	var ip *int
	var e error
	fmt.Printf("%T %T %T %T %T\n", 1, "s", []string{}, map[string]int{}, ip)
	fmt.Printf("%T %T %T %T\n", func(int) bool { return true }, 3.5, 'x', errors.New("x"))
	fmt.Println(ip, e, []int(nil), map[string]int(nil))
	fmt.Printf("%v %d %s %q\n", nil, []int(nil), []string{"a"}, []string{"b"})
	fmt.Printf("%5.1f|%-8s|%+d|%x|%X|%o|%e\n", 2.25, "ab", 3, "hi", 255, 8, 1234.5678)
	fmt.Printf("%t %v %08.3f %3c|\n", false, true, 3.14159, 'A')
}

// Output:
// int string []string map[string]int *int
// func(int) bool float64 int32 *errors.errorString
// <nil> <nil> [] map[]
// <nil> [] [a] ["b"]
//   2.2|ab      |+3|6869|FF|10|1.234568e+03
// false true 0003.142   A|
