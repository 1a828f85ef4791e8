package main

import "fmt"

func grade(s int) string {
	switch {
	case s >= 90:
		return "A"
	case s >= 80:
		return "B"
	default:
		return "C"
	}
}

func main() {
	for _, s := range []int{95, 85, 10} {
		fmt.Print(grade(s))
	}
	fmt.Println()
	x := 5
	switch y := x * 2; {
	case y > 5 && x < 10:
		fmt.Println("mid", y)
	}
	switch x {
	case 1, 2, 3:
		fmt.Println("small")
	case 4, 5:
		fmt.Println("five-ish")
	}
}

// Output:
// ABC
// mid 10
// five-ish
