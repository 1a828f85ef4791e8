package magic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tick-kernel/tick/internal/version"
	"github.com/tick-kernel/tick/kernel/magic/job"
)

// Notebooks written for GoNB (another Go kernel) use magics of their own.
// The ones that make sense in tick run here: the script cell magics
// %%bash, %%sh and %%script (the body is the program's standard input, as
// in GoNB and IPython), %%writefile, %exec and %version; %% and %main
// cells are Go (kernel/session/cell). The others are answered by
// foreignMagics with what to do in tick instead.

// gonbMagics are the script magics, %%writefile, %exec and %version.
func gonbMagics() []Magic {
	script := func(interp string) func(context.Context, *Call) (Output, error) {
		return func(ctx context.Context, c *Call) (Output, error) {
			return Output{}, runScript(ctx, c, interp)
		}
	}
	return []Magic{
		{Name: "bash", Cell: true, Help: help("bash"), Summary: "run the cell with bash (the cell is its standard input)", Run: script("bash")},
		{Name: "sh", Cell: true, Help: help("sh"), Summary: "run the cell with sh (the cell is its standard input)", Run: script("sh")},
		{Name: "script", Cell: true, Help: help("script"), Summary: "run the cell with a program: %%script python3",
			Run: func(ctx context.Context, c *Call) (Output, error) {
				prog := strings.TrimSpace(c.Args)
				if prog == "" {
					return Output{}, &UsageError{Magic: "script", Reason: "no program", Usage: "%%script PROGRAM [ARGS]"}
				}
				return Output{}, runScript(ctx, c, prog)
			}},
		{Name: "writefile", Cell: true, Help: help("writefile"), Summary: "write the cell to a file: %%writefile [-a] PATH",
			Run: func(_ context.Context, c *Call) (Output, error) { return Output{}, writeFile(c) }},
		{Name: "exec", Line: true, Help: help("exec"), Summary: "call a function of no arguments: %exec NAME (GoNB)",
			Run: func(_ context.Context, c *Call) (Output, error) {
				name := strings.TrimSpace(c.Args)
				if name == "" || strings.ContainsAny(name, " \t()") {
					return Output{}, &UsageError{Magic: "exec", Reason: "give the name of a function of no arguments", Usage: "%exec NAME"}
				}
				return Output{}, c.Eval.Exec(name + "()")
			}},
		{Name: "version", Line: true, Help: help("version"), Summary: "tick's version, commit and Go version",
			Run: func(_ context.Context, c *Call) (Output, error) {
				c.Sink.Stream("stdout", fmt.Sprintf("tick %s (commit %s) · %s · yaegi %s\n",
					version.Version, version.Commit(), runtime.Version(), version.Module("github.com/traefik/yaegi")))
				return Output{}, nil
			}},
	}
}

// runScript runs interp (a program and its arguments, through the shell)
// with the cell's body as its standard input, streaming its output; an
// interrupt kills it.
func runScript(ctx context.Context, c *Call, interp string) error {
	cmd := job.Command(interp)
	cmd.Stdin = strings.NewReader(c.Body)
	return runStreamed(ctx, c, cmd, "%%"+c.Name+" "+strings.TrimSpace(c.Args))
}

// writeFile writes the body of a %%writefile cell: -a appends. The path
// may start with ~ and hold environment variables, as in GoNB.
func writeFile(c *Call) error {
	usage := "%%writefile [-a] PATH"
	args := strings.Fields(c.Args)
	appendTo := len(args) > 0 && args[0] == "-a"
	if appendTo {
		args = args[1:]
	}
	if len(args) != 1 {
		return &UsageError{Magic: "writefile", Reason: "give one path", Usage: usage}
	}
	path := os.ExpandEnv(args[0])
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("%%%%writefile: no home directory for %s: %w", path, err)
		}
		path = filepath.Join(home, strings.TrimPrefix(path, "~"))
	}
	verb := "Writing"
	if _, err := os.Stat(path); err == nil {
		verb = "Overwriting"
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flags, verb = os.O_CREATE|os.O_WRONLY|os.O_APPEND, "Appending to"
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return fmt.Errorf("%%%%writefile: %w", unwrapPath(err))
	}
	body := c.Body
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		return fmt.Errorf("%%%%writefile %s: %w", path, unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%%%%writefile %s: %w", path, unwrapPath(err))
	}
	c.Sink.Stream("stdout", verb+" "+path+"\n")
	return nil
}

// foreignMagics answers the magics of other Go kernels that tick does not
// have, each with what to do in tick instead.
var foreignMagics = map[string]string{
	"args":          "GoNB's %args sets the program's arguments; in tick set them in a cell: os.Args = []string{\"main\", \"-n\", \"3\"}",
	"autoget":       "GoNB's %autoget: tick fetches and builds the modules a cell imports by itself; %go get MODULE@VERSION picks a version",
	"noautoget":     "GoNB's %noautoget: tick fetches the modules a cell imports when it imports them; %go list shows what it uses",
	"goflags":       "GoNB's %goflags: tick compiles %%go cells and modules with its own toolchain and flags; they cannot be set",
	"with_inputs":   "GoNB's %with_inputs: a shell command in tick reads no input; Go code reads the front end's input with fmt.Scan or bufio on os.Stdin",
	"with_password": "GoNB's %with_password: a shell command in tick reads no input; Go code reads the front end's input with fmt.Scan or bufio on os.Stdin",
	"capture":       "GoNB's %capture: tick does not copy a cell's output to a file; `tick run NOTEBOOK` or nbconvert keeps the outputs",
	"list":          "GoNB's %list: %who lists the session's variables, %whos with their types and values",
	"ls":            "GoNB's %ls: %who lists the session's variables, %whos with their types and values",
	"remove":        "GoNB's %remove: tick cannot forget a definition; redefine it in a later cell, or restart the kernel",
	"rm":            "GoNB's %rm: tick cannot forget a definition; redefine it in a later cell, or restart the kernel",
	"reset":         "GoNB's %reset: restart the kernel to start a fresh session (Kernel > Restart)",
	"track":         "GoNB's %track: tick tracks no files; %go use DIR makes a local module importable, and re-importing it rebuilds it when its source changed",
	"untrack":       "GoNB's %untrack: tick tracks no files (see %go use DIR)",
	"goworkfix":     "GoNB's %goworkfix: %go use DIR points a module's imports at a local directory",
	"widgets":       "GoNB's %widgets: tick has no widgets; display.HTML and a display handle's Update change an output in place (tick/display)",
	"widgets_hb":    "GoNB's %widgets_hb: tick has no widgets",
	"wasm":          "GoNB's %wasm: tick does not compile cells to WebAssembly",
	"test":          "GoNB's %test: tick runs cells, not tests; write the test in a module and run it with !go test ./...",
}

// foreignMagic returns the explanation for a magic of another kernel.
func foreignMagic(name string) (string, bool) {
	why, ok := foreignMagics[name]
	return why, ok
}
