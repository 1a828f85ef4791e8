package main

import (
	"fmt"
	"time"
)

func main() {
	d := 1500 * time.Millisecond
	fmt.Println(d, d.Seconds(), time.Duration(1234567))
	fmt.Printf("%v %s %d\n", 2*time.Microsecond, time.Hour+3*time.Minute, time.Second)
	t := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	fmt.Println(t.Format(time.RFC3339), t.Add(36*time.Hour).Weekday(), t.YearDay())
}

// Output:
// 1.5s 1.5 1.234567ms
// 2µs 1h3m0s 1000000000
// 2024-03-01T12:00:00Z Sunday 61
