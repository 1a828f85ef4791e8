package main

import (
	"fmt"
	"time"
)

func main() {
	t := time.Date(2024, time.February, 29, 13, 4, 5, 0, time.UTC)
	fmt.Println(t.Format(time.DateOnly), t.Format(time.TimeOnly), t.Format("Jan 2, 2006 at 3:04pm"))
	p, err := time.Parse(time.DateTime, "2024-03-01 10:00:00")
	fmt.Println(p.Sub(t).Round(time.Minute), err)
	fmt.Println(t.AddDate(0, 1, 0).Format(time.DateOnly), t.Truncate(time.Hour).Format(time.Kitchen))
	d, _ := time.ParseDuration("1h15m30.5s")
	fmt.Println(d, d.Minutes())
}

// Output:
// 2024-02-29 13:04:05 Feb 29, 2024 at 1:04pm
// 20h56m0s <nil>
// 2024-03-29 1:00PM
// 1h15m30.5s 75.50833333333334
