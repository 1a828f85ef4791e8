// Command tick is a Jupyter kernel for Go. Subcommands:
//
//	tick kernel CONNECTION_FILE   serve Jupyter (started by Jupyter via kernel.json)
//	tick install [flags]          install the kernelspec so Jupyter finds tick
//	tick version                  print tick, Go and yaegi versions
//
// Each subcommand lives in its own file and registers itself in init with
// register; main only dispatches.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// command is one subcommand.
type command struct {
	name    string
	usage   string // the argument synopsis, e.g. "CONNECTION_FILE"
	summary string
	hidden  bool // not listed by usage (internal commands)
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands is filled by the init functions of this package's files; it is
// read-only once main starts.
var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("tick: duplicate subcommand " + c.name)
	}
	commands[c.name] = c
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tick <command> [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		if c.hidden {
			continue
		}
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'tick <command> -h' for a command's flags.")
}

// processStart is when the process started, for the kernel's ready log line.
var processStart = time.Now()

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tick: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		var status exitStatus
		if errors.As(err, &status) {
			return int(status)
		}
		fmt.Fprintf(stderr, "tick %s: %v\n", c.name, err)
		return 1
	}
	return 0
}

// exitStatus is the error of a command that has printed its own messages
// and ends the process with this status (commands never call os.Exit).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
