package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/internal/version"
)

func init() {
	register(&command{name: "version", summary: "print tick, Go and yaegi versions and the memory ceiling", run: runVersion})
}

// versionString is tick's version with its commit, as kernel_info shows it.
func versionString() string {
	return version.Version + " (" + version.Commit() + ")"
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("takes no arguments, got %q", args)
	}
	fmt.Fprintf(stdout, "tick %s\ncommit %s\ngo %s\nyaegi %s\n",
		version.Version, version.Commit(), runtime.Version(), version.Module("github.com/traefik/yaegi"))
	printMemory(stdout)
	return nil
}

// printMemory prints the memory ceiling a kernel started here would use,
// and every limit found.
func printMemory(w io.Writer) {
	c, err := memlimit.Discover()
	if err != nil {
		fmt.Fprintf(w, "memory ceiling: %v\n", err)
		return
	}
	fmt.Fprintf(w, "memory ceiling %s\n", c)
	for _, l := range c.All {
		fmt.Fprintf(w, "  limit %s: %s\n", memlimit.Human(l.Bytes), l.Source)
	}
}
