package main

import (
	"fmt"
	"strings"
)

func render(rows [][]string) string {
	var b strings.Builder
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(c + strings.Repeat(".", widths[i]-len(c)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func main() {
	fmt.Print(render([][]string{{"name", "n"}, {"relu", "1024"}, {"x", "7"}}))
}

// Output:
// name | n...
// relu | 1024
// x... | 7...
