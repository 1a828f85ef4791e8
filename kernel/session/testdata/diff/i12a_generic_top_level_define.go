package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func main() {
	ages := map[string]int{"carol": 35, "alice": 30, "bob": 25}
	words := strings.Fields("go tick notebook")
	// cell
	names := slices.Sorted(maps.Keys(ages))
	years := slices.Sorted(maps.Values(ages))
	fmt.Println(names, years)
	// cell
	// ages and words are session variables here: their types come from the session
	again := slices.Sorted(maps.Keys(ages))
	one := map[string]int{"x": 1}
	counts := slices.Collect(maps.Values(one))
	counts = append(counts, len(words))
	fmt.Println(again, counts)
}

// Output:
// [alice bob carol] [25 30 35]
// [alice bob carol] [1 3]
