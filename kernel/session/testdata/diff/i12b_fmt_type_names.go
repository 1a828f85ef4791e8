package main

import "fmt"

type Inner struct {
	A      int
	secret string
}

type Outer struct {
	Name string
	In   Inner
	Ptr  *Inner
}

func main() {
	in := Inner{1, "s"}
	fmt.Printf("%T|%v|%+v|%#v\n", in, in, in, in)
	// cell
	o := Outer{Name: "o", In: in}
	fmt.Printf("%T %+v\n", o, o)
	fmt.Printf("%#v\n", o)
	fmt.Printf("%T %T %T %T\n", &in, []Inner{}, map[string]Inner{}, [2]Inner{})
	fmt.Printf("%v %+v\n", &in, []Inner{in, {2, "t"}})
	fmt.Println(fmt.Sprintf("%-12T|", in), fmt.Sprint(in), fmt.Sprintln(map[int]Inner{2: in, 1: {}}))
	fmt.Printf("%[2]T %[1]v %[3]d%%\n", in, o, 5)
}

// Output:
// main.Inner|{1 s}|{A:1 secret:s}|main.Inner{A:1, secret:"s"}
// main.Outer {Name:o In:{A:1 secret:s} Ptr:<nil>}
// main.Outer{Name:"o", In:main.Inner{A:1, secret:"s"}, Ptr:(*main.Inner)(nil)}
// *main.Inner []main.Inner map[string]main.Inner [2]main.Inner
// &{1 s} [{A:1 secret:s} {A:2 secret:t}]
// main.Inner  | {1 s} map[1:{0 } 2:{1 s}]
//
// main.Outer {1 s} 5%
