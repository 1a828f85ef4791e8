package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/tick-kernel/tick/notebook"
	"github.com/tick-kernel/tick/notebook/export"
)

func init() {
	register(&command{name: "export", usage: "NOTEBOOK.ipynb [-o DIR] [--stdout]",
		summary: "turn a notebook into a Go program (DIR/main.go and go.mod) that go run executes", run: runExport})
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("tick export", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("o", "", "write `DIR`/main.go (and DIR/go.mod when DIR has none); default: the notebook's name without .ipynb")
	toStdout := fl.Bool("stdout", false, "print main.go instead of writing files")
	var nbPath string
	// The notebook may come before or after the flags.
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		nbPath, args = args[0], args[1:]
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if nbPath == "" && fl.NArg() > 0 {
		nbPath = fl.Arg(0)
	} else if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: export one notebook at a time", fl.Args())
	}
	if nbPath == "" {
		return errors.New("which notebook? usage: tick export NOTEBOOK.ipynb [-o DIR] [--stdout]")
	}
	f, err := os.Open(nbPath)
	if err != nil {
		return fmt.Errorf("cannot open the notebook: %w", err)
	}
	nb, err := notebook.Read(f)
	f.Close()
	if err != nil {
		return err
	}
	prog, err := export.Export(nb, filepath.Base(nbPath))
	if err != nil {
		return err
	}
	if *toStdout {
		_, err := stdout.Write(prog.Source)
		return err
	}
	if *dir == "" {
		*dir = strings.TrimSuffix(nbPath, filepath.Ext(nbPath))
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", *dir, err)
	}
	mainGo := filepath.Join(*dir, "main.go")
	if err := os.WriteFile(mainGo, prog.Source, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", mainGo)
	if prog.Magics > 0 {
		fmt.Fprintf(stdout, "%d magic line(s) are commented out (tick commands, not Go): the program's output differs from the notebook's there\n", prog.Magics)
	}
	modFile := filepath.Join(*dir, "go.mod")
	if _, err := os.Stat(modFile); err == nil {
		fmt.Fprintf(stdout, "run it: cd %s && go run .\n", *dir)
		return nil
	}
	if err := os.WriteFile(modFile, []byte(goMod(*dir, prog.TickImports)), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", modFile)
	if prog.TickImports && tickModuleVersion() == "" {
		fmt.Fprintf(stdout, "it imports tick's packages, and this tick is a development build: in %s run\n"+
			"  go mod edit -replace %s=/path/to/your/tick/clone && go mod tidy\n", *dir, export.Module)
	} else if prog.TickImports {
		fmt.Fprintf(stdout, "it imports tick's packages: in %s run go mod tidy (go.mod requires %s %s)\n", *dir, export.Module, tickModuleVersion())
	}
	fmt.Fprintf(stdout, "run it: cd %s && go run .\n", *dir)
	return nil
}

// goMod is the go.mod of an exported program.
func goMod(dir string, tick bool) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '-'
	}, filepath.Base(dir))
	s := fmt.Sprintf("module %s\n\ngo 1.22\n", name)
	if v := tickModuleVersion(); tick && v != "" {
		s += fmt.Sprintf("\nrequire %s %s\n", export.Module, v)
	}
	return s
}

// tickModuleVersion is this binary's module version when it was built
// from a module version (go install …@v1.2.3), else "".
func tickModuleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Path == export.Module && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return ""
}
