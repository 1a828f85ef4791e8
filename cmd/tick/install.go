package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"github.com/tick-kernel/tick/install"
)

func init() {
	register(&command{name: "install", usage: "[--name NAME] [--prefix DIR | --sys-prefix] [--uninstall]",
		summary: "install (or remove) the Jupyter kernelspec for tick", run: runInstall})
}

func runInstall(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tick install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o install.Options
	var uninstall bool
	fs.StringVar(&o.Name, "name", install.DefaultName, "kernelspec name (the kernel Jupyter offers)")
	fs.StringVar(&o.Prefix, "prefix", "", "install into `DIR`/share/jupyter")
	fs.BoolVar(&o.SysPrefix, "sys-prefix", false, "install into {sys.prefix}/share/jupyter of Jupyter's Python")
	fs.BoolVar(&uninstall, "uninstall", false, "remove the kernelspec instead")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if uninstall {
		dir, err := install.Uninstall(o)
		if errors.Is(err, errNotExist) {
			return fmt.Errorf("%w\n(nothing to remove; `jupyter kernelspec list` shows where kernels are installed)", err)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed kernelspec %q from %s\n", o.Name, dir)
		return nil
	}
	dir, err := install.Install(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec %q in %s\n(`jupyter kernelspec list` shows it; choose \"Go (tick)\" in Jupyter)\n", o.Name, dir)
	return nil
}

var errNotExist = fs.ErrNotExist
