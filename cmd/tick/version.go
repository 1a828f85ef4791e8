package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/tick-kernel/tick/internal/version"
)

func init() {
	register(&command{name: "version", summary: "print tick, Go and yaegi versions", run: runVersion})
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
	return nil
}
