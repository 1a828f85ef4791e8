package main

import "fmt"

type Node struct {
	Val  int
	Next *Node
}

func main() {
	var head *Node
	for i := 3; i > 0; i-- {
		head = &Node{i, head}
	}
	for n := head; n != nil; n = n.Next {
		fmt.Print(n.Val, " ")
	}
	fmt.Println("|")
	a := Node{Val: 1}
	b := a
	b.Val = 2
	p := &a
	p.Val = 3
	fmt.Println(a.Val, b.Val, *p == a)
}

// Output:
// 1 2 3 |
// 3 2 true
