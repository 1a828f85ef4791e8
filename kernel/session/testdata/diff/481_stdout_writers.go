package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

func main() {
	os.Stdout.WriteString("direct\n")
	io.Copy(os.Stdout, strings.NewReader("copied\n"))
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "buffered %d\n", 1)
	w.Flush()
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 1, ' ', 0)
	fmt.Fprintln(tw, "a\tbb\tc")
	fmt.Fprintln(tw, "aaa\tb\tc")
	tw.Flush()
	fmt.Fprint(os.Stdout, "end", "\n")
}

// Output:
// direct
// copied
// buffered 1
// a   bb c
// aaa b  c
// end
