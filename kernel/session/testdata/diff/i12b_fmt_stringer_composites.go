package main

import "fmt"

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type Temp struct{ C float64 }

func (t *Temp) String() string { return fmt.Sprintf("%.1f°C", t.C) }

type Fail struct{ Code int }

func (f Fail) Error() string { return fmt.Sprint("fail ", f.Code) }

type Shape struct {
	Name   string
	Corner Point
	Fails  []Fail
}

func main() {
	pts := []Point{{1, 2}, {3, 4}}
	fmt.Println(pts, len(pts))
	fmt.Println(map[string]Point{"b": {5, 6}, "a": {7, 8}})
	// cell
	fmt.Println(Shape{"sq", Point{0, 1}, []Fail{{1}, {2}}})
	fmt.Printf("%v|%s|%+v|%q\n", pts, pts[0], Shape{Name: "t"}, pts)
	t := Temp{21.5}
	fmt.Println(&t, []*Temp{&t}, []Temp{t})
	ptrs := []*Point{{9, 9}}
	fmt.Println(ptrs, &pts[0])
	fmt.Println([]any{Point{1, 1}, 2, "x", Fail{3}})
	fmt.Printf("%d %x\n", pts, Point{10, 11})
}

// Output:
// [(1,2) (3,4)] 2
// map[a:(7,8) b:(5,6)]
// {sq (0,1) [fail 1 fail 2]}
// [(1,2) (3,4)]|(1,2)|{Name:t Corner:(0,0) Fails:[]}|["(1,2)" "(3,4)"]
// 21.5°C [21.5°C] [{21.5}]
// [(9,9)] (1,2)
// [(1,1) 2 x fail 3]
// [{1 2} {3 4}] 2831302c313129
