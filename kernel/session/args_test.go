package session

import (
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// os.Args of cell code is a program's, ["main"], whatever the process's
// command line (the kernel's: tick kernel -f ...), and package flag parses
// it: flag.NArg() was the number of the kernel's own arguments (yaegi
// corpus flag0). Arguments a cell sets reach flag.Parse; a pasted program
// run twice defines its flags again without "flag redefined".
func TestArgsAreTheProgramsNotTheKernels(t *testing.T) {
	saved := os.Args
	os.Args = []string{"tick", "kernel", "-f", "kernel.json"}
	defer func() { os.Args = saved }()
	s := newSession(t)
	runTable(t, s, []cellCase{
		{name: "os_args", code: "import (\"flag\"; \"fmt\"; \"os\")\nos.Args", value: `[main]`},
		{name: "parse_nothing", code: "flag.Parse()\nfmt.Println(flag.NArg(), flag.Args(), flag.Parsed())", out: "0 [] true\n"},
		{name: "program_with_flags", code: `package main

import (
	"flag"
	"fmt"
	"os"
)

var n = flag.Int("n", 1, "how many")

func main() {
	args := []string{"main", "-n", "3", "rest"}
	os.Args = args // (the interpreter drops a composite literal assigned to os.Args straight: yaegi's, too)
	flag.Parse()
	fmt.Println(*n, flag.NArg(), flag.Arg(0))
}`, out: "3 1 rest\n"},
		{name: "program_again", code: `var n = flag.Int("n", 1, "how many")
func main() {
	flag.Parse()
	fmt.Println(*n, flag.NArg())
}`, out: "3 1\n"},
		{name: "redefined_outside_a_program", code: `flag.Int("n", 2, "again")`, err: "flag redefined: n"},
		{name: "bad_flag", code: "bad := []string{\"main\", \"-x\"}\nos.Args = bad\nfs := flag.NewFlagSet(\"main\", flag.ContinueOnError)\nflag.CommandLine = fs\nflag.Parse()\nflag.NFlag()", value: "0"},
	})
	if flag.CommandLine.Lookup("n") != nil {
		t.Error("a cell's flag.Int defined a flag on the process's command line")
	}
}

// Every function of package flag that works on flag.CommandLine is bound
// to the session's: a function Go adds to the package fails here until
// args.go binds it.
func TestEveryFlagFunctionIsTheSessions(t *testing.T) {
	ours := newCmdLine(nil, os.Stderr).symbols()["flag/flag"]
	for name, v := range std.Symbols["flag/flag"] {
		if v.Kind() != reflect.Func || name == "NewFlagSet" || name == "UnquoteUsage" {
			continue
		}
		if _, ok := ours[name]; !ok {
			t.Errorf("flag.%s works on the process's command line in cells: bind it in args.go", name)
		}
	}
	for name, v := range ours {
		if std, ok := std.Symbols["flag/flag"][name]; !ok || std.Type() != v.Type() && !strings.HasPrefix(name, "Command") {
			t.Errorf("flag.%s: %v in args.go, %v in package flag", name, v.Type(), std)
		}
	}
}
