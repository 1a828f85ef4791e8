package main

import "fmt"

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

func main() {
	fmt.Println(Celsius(21.5))
}

// Output:
// 21.5°C
