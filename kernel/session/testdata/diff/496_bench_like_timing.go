package main

import (
	"fmt"
	"sort"
	"time"
)

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func main() {
	ds := []time.Duration{3 * time.Millisecond, 1 * time.Millisecond, 2 * time.Millisecond}
	fmt.Println(median(ds), ds)
	start := time.Now()
	elapsed := time.Since(start)
	fmt.Println(elapsed >= 0, elapsed < time.Second)
	fmt.Printf("%.1f ms\n", float64(2500*time.Microsecond)/float64(time.Millisecond))
	fmt.Println((1500 * time.Microsecond).Round(time.Millisecond), time.Duration(0))
}

// Output:
// 2ms [3ms 1ms 2ms]
// true true
// 2.5 ms
// 2ms 0s
