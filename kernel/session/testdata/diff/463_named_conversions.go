package main

import "fmt"

type Meters float64
type Feet float64

func toFeet(m Meters) Feet { return Feet(m * 3.28084) }

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

func (d Weekday) Next() Weekday { return (d + 1) % 3 }

func main() {
	fmt.Printf("%.2f\n", toFeet(10))
	var w Weekday = Tuesday
	fmt.Println(w.Next(), Monday.Next(), int(w)+1)
	type ID string
	ids := []ID{"b", "a"}
	fmt.Println(ids, string(ids[0])+"!")
}

// Output:
// 32.81
// 0 2 3
// [b a] b!
