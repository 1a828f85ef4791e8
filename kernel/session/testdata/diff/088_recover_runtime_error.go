package main

import "fmt"

func at(s []int, i int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return s[i], nil
}

func main() {
	fmt.Println(at([]int{1, 2, 3}, 1))
	_, err := at([]int{1, 2, 3}, 5)
	fmt.Println(err != nil)
}

// Output:
// 2 <nil>
// true
