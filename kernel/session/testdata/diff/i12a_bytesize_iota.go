package main

import "fmt"

// Effective Go's ByteSize: a typed iota block with a blank first line
type ByteSize float64

const (
	_           = iota // ignore first value by assigning to blank identifier
	KB ByteSize = 1 << (10 * iota)
	MB
	GB
	TB
	PB
	EB
	ZB
	YB
)

// (a func, not a String method: fmt does not see the methods of cell types)
func format(b ByteSize) string {
	switch {
	case b >= YB:
		return fmt.Sprintf("%.2fYB", float64(b/YB))
	case b >= ZB:
		return fmt.Sprintf("%.2fZB", float64(b/ZB))
	case b >= EB:
		return fmt.Sprintf("%.2fEB", float64(b/EB))
	case b >= PB:
		return fmt.Sprintf("%.2fPB", float64(b/PB))
	case b >= TB:
		return fmt.Sprintf("%.2fTB", float64(b/TB))
	case b >= GB:
		return fmt.Sprintf("%.2fGB", float64(b/GB))
	case b >= MB:
		return fmt.Sprintf("%.2fMB", float64(b/MB))
	case b >= KB:
		return fmt.Sprintf("%.2fKB", float64(b/KB))
	}
	return fmt.Sprintf("%.2fB", float64(b))
}

type Weekday int

const (
	Sunday Weekday = iota + 1
	Monday
	_
	Wednesday
)

// several names per line, an untyped rune and a float from iota
const (
	A, B = iota, -10 * iota
	C, D
	R = 'a' + iota
	S
	F = 1.5 * iota
)

func main() {
	fmt.Println(KB, MB, GB)
	fmt.Println(YB, float64(YB) == 1<<80)
	fmt.Println(format(ByteSize(1e13)), format(YB), format(MB/2))
	// cell
	fmt.Println(Sunday, Monday, Wednesday)
	fmt.Println(Monday+1, Wednesday*2)
	// cell
	fmt.Println(A, B, C, D)
	fmt.Printf("%T %c %c %v %T\n", R, R, S, F, F)
	// cell
	const (
		x = iota * 3
		y
	)
	fmt.Println(x, y)
}

// Output:
// 1024 1.048576e+06 1.073741824e+09
// 1.2089258196146292e+24 true
// 9.09TB 1.00YB 512.00KB
// 1 2 4
// 3 8
// 0 0 1 -10
// int32 c d 6 float64
// 0 3
