package main

import (
	"fmt"
	"math/rand"
)

func main() {
	r := rand.New(rand.NewSource(42))
	fmt.Println(r.Intn(100), r.Intn(100), r.Float64() < 1)
	perm := r.Perm(5)
	fmt.Println(len(perm))
	xs := []int{1, 2, 3, 4}
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	sum := 0
	for _, x := range xs {
		sum += x
	}
	fmt.Println(sum)
}

// Output:
// 5 87 true
// 5
// 10
