package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tick-kernel/tick/install"
)

func init() {
	register(&command{name: "install",
		usage:   "[--name NAME] [--display-name TEXT] [--env KEY=VALUE]... [--user | --system | --sys-prefix | --prefix DIR] [--binary PATH] [--uninstall]",
		summary: "install (or remove) the Jupyter kernelspec for tick", run: runInstall})
}

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func runInstall(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("tick install", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o install.Options
	var uninstall bool
	var env repeated
	fl.StringVar(&o.Name, "name", install.DefaultName, "kernelspec `NAME` (the directory under kernels/; letters, digits, . _ -)")
	fl.StringVar(&o.DisplayName, "display-name", "", "the name Jupyter's launcher shows (default \"Go (tick)\", or \"Go (tick: NAME)\" with --name)")
	fl.Var(&env, "env", "`KEY=VALUE` set in the kernel's environment through kernel.json (repeatable), e.g. --env DEVICE=CPU")
	fl.BoolVar(&o.User, "user", false, "install into the user's Jupyter data directory (the default)")
	fl.BoolVar(&o.System, "system", false, "install system-wide (/usr/local/share/jupyter; %PROGRAMDATA%\\jupyter on Windows), for every user")
	fl.StringVar(&o.Prefix, "prefix", "", "install into `DIR`/share/jupyter")
	fl.BoolVar(&o.SysPrefix, "sys-prefix", false, "install into {sys.prefix}/share/jupyter of Jupyter's Python")
	fl.StringVar(&o.Binary, "binary", "", "the tick executable kernel.json starts (default: this one)")
	fl.BoolVar(&uninstall, "uninstall", false, "remove the kernelspec instead")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags come before nothing else; see tick install -h)", fl.Args())
	}
	kenv, err := install.ParseEnv(env)
	if err != nil {
		return err
	}
	o.KernelEnv = kenv
	if uninstall {
		dir, err := install.Uninstall(o)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w\n(nothing to remove; `jupyter kernelspec list` shows where kernels are installed)", err)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed kernelspec %q from %s\n", o.Name, dir)
		return nil
	}
	res, err := install.Install(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec %q (%q in Jupyter's launcher) in %s\n", o.Name, res.Spec.DisplayName, res.Dir)
	fmt.Fprintf(stdout, "it starts %s\n", strings.Join(res.Spec.Argv, " "))
	if res.Found {
		fmt.Fprintf(stdout, "Jupyter searches %s: `jupyter kernelspec list` shows %q\n", res.DataDir, o.Name)
		return nil
	}
	sep := string(os.PathListSeparator)
	fmt.Fprintf(stdout, "Jupyter does not search %s by default, so it will not find this kernel yet:\n"+
		"  export JUPYTER_PATH=%s%s$JUPYTER_PATH   (before starting Jupyter), or install with --user instead\n",
		res.DataDir, filepath.Clean(res.DataDir), sep)
	return nil
}
