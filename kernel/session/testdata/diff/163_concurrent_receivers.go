package main

import "fmt"

// Goroutines that run the same receive and send statements on different
// channels at once (the interpreter's select shares its cases between
// them: a rewrite into selects deadlocked here).
func get(c chan int) int { return <-c }

func main() {
	res := make(chan int, 4000)
	for w := 0; w < 4; w++ {
		c := make(chan int)
		go func(w int, c chan int) {
			for i := 0; i < 500; i++ {
				c <- w
			}
		}(w, c)
		go func(w int, c chan int) {
			for i := 0; i < 500; i++ {
				v := <-c
				if i%2 == 0 {
					v = get(c)
					i++
				}
				if v != w {
					res <- -1
				} else {
					res <- v
				}
			}
		}(w, c)
	}
	bad, n := 0, 0
	for n < 4*250 {
		if <-res < 0 {
			bad++
		}
		n++
	}
	fmt.Println("wrong channel:", bad)
}

// Output:
// wrong channel: 0
