package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

func main() {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "x=%d;", 1)
	buf.WriteString("y=2")
	fmt.Println(buf.String(), buf.Len())
	sc := bufio.NewScanner(strings.NewReader("a b\nc d e\n"))
	n := 0
	for sc.Scan() {
		n += len(strings.Fields(sc.Text()))
	}
	fmt.Println(n)
	w := bufio.NewWriter(&buf)
	w.WriteString("!")
	w.Flush()
	fmt.Println(buf.String())
}

// Output:
// x=1;y=2 7
// 5
// x=1;y=2!
