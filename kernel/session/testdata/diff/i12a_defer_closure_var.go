package main

import "fmt"

// deferring a closure variable, and calling one from a deferred literal
func run() (out string) {
	cleanup := func(s string) { out += "cleanup(" + s + ")" }
	defer cleanup("last")
	var note func()
	note = func() { out += "note " }
	defer func() { note() }()
	out = "body "
	return out
}

func loop() {
	for i := 0; i < 3; i++ {
		show := func() { fmt.Print(i) }
		defer show()
	}
}

func main() {
	fmt.Println(run())
	// cell
	loop()
	fmt.Println()
}

// Output:
// body note cleanup(last)
// 210
