package main

import "fmt"

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() T {
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v
}

func main() {
	s := &Stack[int]{}
	s.Push(1)
	s.Push(2)
	fmt.Println(s.Pop(), s.Pop())
}

// Output:
// 2 1
