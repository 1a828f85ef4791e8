package main

import "fmt"

type Point struct {
	X, Y int
}

type Line struct {
	A, B  Point
	Label string
}

func main() {
	l := Line{Point{1, 2}, Point{3, 4}, "ab"}
	fmt.Printf("%v\n%+v\n", l, l)
	fmt.Printf("%v %+v\n", &l.A, []Point{{5, 6}})
	fmt.Println(fmt.Sprint(l.A, l.B), fmt.Sprintf("%6.2f|%-5d|%5s", 3.14159, 42, "go"))
}

// Output:
// {{1 2} {3 4} ab}
// {A:{X:1 Y:2} B:{X:3 Y:4} Label:ab}
// &{1 2} [{X:5 Y:6}]
// {1 2} {3 4}   3.14|42   |   go
