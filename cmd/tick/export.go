package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tick-kernel/tick/kernel/gocompile"
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
	src := ""
	if prog.TickImports && tickModuleVersion() == "" {
		// A development build: go.mod replaces tick by the clone it was
		// built from, so the program builds against the same source.
		if h, err := gocompile.ReadHost(""); err == nil {
			src = h.MainDir
		}
	}
	if err := os.WriteFile(modFile, []byte(goMod(*dir, prog.TickImports, src)), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", modFile)
	if prog.TickImports {
		if tickModuleVersion() == "" && src == "" {
			fmt.Fprintf(stdout, "it imports tick's packages, and this tick was built without its source path (-trimpath): in %s run\n"+
				"  go mod edit -replace %s=/path/to/your/tick/clone && go mod tidy\n", *dir, export.Module)
			return nil
		}
		// go.sum: the modules tick's packages use, from the module cache
		// (or the proxy); without it `go run .` stops at the first import.
		tidy := exec.Command("go", "mod", "tidy")
		tidy.Dir = *dir
		if out, err := tidy.CombinedOutput(); err != nil {
			fmt.Fprintf(stdout, "it imports tick's packages; `go mod tidy` in %s failed (%v):\n%s"+
				"fix that (a Go toolchain on PATH, the module proxy or cache reachable), then go run .\n", *dir, err, out)
			return nil
		}
		how := "tick " + tickModuleVersion()
		if src != "" {
			how = "the tick source it was built from, " + src
		}
		fmt.Fprintf(stdout, "it imports tick's packages: go.mod resolves them to %s (go mod tidy wrote go.sum)\n", how)
	}
	fmt.Fprintf(stdout, "run it: cd %s && go run .\n", *dir)
	return nil
}

// goMod is the go.mod of an exported program: tick required at this
// binary's version, or replaced by its source directory src for a
// development build.
func goMod(dir string, tick bool, src string) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '-'
	}, filepath.Base(dir))
	s := fmt.Sprintf("module %s\n\ngo %s\n", name, goDirective())
	switch v := tickModuleVersion(); {
	case tick && v != "":
		s += fmt.Sprintf("\nrequire %s %s\n", export.Module, v)
	case tick && src != "":
		s += fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", export.Module, export.Module, src)
	}
	return s
}

// goDirective is the go version of the exported go.mod: tick's own (its
// packages need it), read from this binary's toolchain.
func goDirective() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		return parts[0] + "." + parts[1] + ".0"
	}
	return "1.22"
}

// tickModuleVersion is this binary's module version when it was built
// from a module version (go install …@v1.2.3), else "" (a build in a
// clone, whose VCS-stamped pseudo-version nothing serves).
func tickModuleVersion() string {
	if h, err := gocompile.ReadHost(""); err == nil && h.MainPath == export.Module && !h.FromCheckout() {
		return h.MainVersion
	}
	return ""
}
