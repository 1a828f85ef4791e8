package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	prefix := t.TempDir()
	spec := filepath.Join(prefix, "share", "jupyter", "kernels", "tick-cli", "kernel.json")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   string
		check    func() bool
		checkMsg string
	}{
		{name: "no args", args: nil, code: 2, stderr: "usage: tick"},
		{name: "unknown", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "version", args: []string{"version"}, code: 0, stdout: "yaegi "},
		{name: "kernel needs a file", args: []string{"kernel"}, code: 1, stderr: "CONNECTION_FILE"},
		{name: "kernel missing file", args: []string{"kernel", filepath.Join(prefix, "nope.json")}, code: 1, stderr: "connection file"},
		{name: "install", args: []string{"install", "--name", "tick-cli", "--prefix", prefix, "--binary", "/usr/local/bin/tick"}, code: 0, stdout: "installed kernelspec",
			check: func() bool { _, err := os.Stat(spec); return err == nil }, checkMsg: "kernel.json written"},
		{name: "uninstall", args: []string{"install", "--name", "tick-cli", "--prefix", prefix, "--uninstall"}, code: 0, stdout: "removed",
			check: func() bool { _, err := os.Stat(spec); return os.IsNotExist(err) }, checkMsg: "kernel.json removed"},
		{name: "run a missing notebook", args: []string{"run", filepath.Join(prefix, "nope.ipynb")}, code: 2, stderr: "cannot open the notebook"},
		{name: "run usage", args: []string{"run"}, code: 2, stderr: "want exactly one notebook"},
		{name: "uninstall again", args: []string{"install", "--name", "tick-cli", "--prefix", prefix, "--uninstall"}, code: 1, stderr: "nothing to remove"},
		{name: "install from go test", args: []string{"install", "--name", "tick-cli", "--prefix", prefix}, code: 1, stderr: "is a temporary binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tc.args, &out, &errOut); code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout %q (want %q), stderr %q (want %q)", out.String(), tc.stdout, errOut.String(), tc.stderr)
			}
			if tc.check != nil && !tc.check() {
				t.Errorf("not %s", tc.checkMsg)
			}
		})
	}
}

// TestInstallOptions runs `tick install` with each option and error, and
// reads what it wrote and said.
func TestInstallOptions(t *testing.T) {
	data, prefix := t.TempDir(), t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	t.Setenv("JUPYTER_PATH", "")
	bin := "/usr/local/bin/tick"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
		spec   string // the kernel.json to read, relative to data
		check  func(s map[string]any) bool
	}{
		{name: "user default", args: []string{"--binary", bin}, stdout: []string{`"Go (tick)"`, filepath.Join(data, "kernels", "tick"), "`jupyter kernelspec list` shows"},
			spec: "kernels/tick", check: func(s map[string]any) bool { return s["display_name"] == "Go (tick)" && s["env"] == nil }},
		{name: "--user", args: []string{"--user", "--name", "u2", "--binary", bin}, stdout: []string{filepath.Join(data, "kernels", "u2"), `"Go (tick: u2)"`}, spec: "kernels/u2"},
		{name: "display name", args: []string{"--name", "cpu", "--display-name", "Go (tick, CPU)", "--binary", bin}, stdout: []string{`"Go (tick, CPU)"`},
			spec: "kernels/cpu", check: func(s map[string]any) bool { return s["display_name"] == "Go (tick, CPU)" }},
		{name: "env repeated", args: []string{"--name", "dbg", "--env", "DEVICE=CPU", "--env", "DEBUG=2", "--binary", bin}, stdout: []string{"installed"},
			spec: "kernels/dbg", check: func(s map[string]any) bool {
				e, _ := s["env"].(map[string]any)
				return e["DEVICE"] == "CPU" && e["DEBUG"] == "2" && len(e) == 2
			}},
		{name: "prefix not searched", args: []string{"--prefix", prefix, "--binary", bin}, stdout: []string{"does not search " + filepath.Join(prefix, "share", "jupyter"), "export JUPYTER_PATH="}},
		{name: "bad env", args: []string{"--env", "DEVICE", "--binary", bin}, code: 1, stderr: "want KEY=VALUE"},
		{name: "escaping name", args: []string{"--name", "../../etc", "--binary", bin}, code: 1, stderr: "not a valid kernelspec name"},
		{name: "two places", args: []string{"--system", "--prefix", prefix, "--binary", bin}, code: 1, stderr: "--system and --prefix exclude each other"},
		{name: "user and sys-prefix", args: []string{"--user", "--sys-prefix", "--binary", bin}, code: 1, stderr: "--user and --sys-prefix exclude each other"},
		{name: "extra argument", args: []string{"--binary", bin, "extra"}, code: 1, stderr: "unexpected arguments"},
		{name: "unknown flag", args: []string{"--colour"}, code: 1, stderr: "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(append([]string{"install"}, tc.args...), &out, &errOut); code != tc.code {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q)", code, tc.code, out.String(), errOut.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout %q lacks %q", out.String(), want)
				}
			}
			if !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tc.stderr)
			}
			if tc.spec == "" {
				return
			}
			b, err := os.ReadFile(filepath.Join(data, tc.spec, "kernel.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s map[string]any
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if argv, _ := s["argv"].([]any); len(argv) != 3 || argv[0] != bin {
				t.Errorf("argv = %v", s["argv"])
			}
			if tc.check != nil && !tc.check(s) {
				t.Errorf("kernel.json = %s", b)
			}
		})
	}
	if entries, _ := os.ReadDir(filepath.Join(data, "kernels")); len(entries) != 4 {
		t.Errorf("kernels installed: %v, want tick, u2, cpu, dbg (failed installs write nothing)", entries)
	}
}

// TestStartupWritesNoSharedFiles: starting tick (the initialization of
// every package it links) writes nothing to the temporary directory the
// machine's users share. go-graphviz, linked for %viz until its layout
// became tick's own, wrote its compiled module to /tmp/go-graphviz there
// and broke every other user of a JupyterHub (a library that does so
// again fails this test).
func TestStartupWritesNoSharedFiles(t *testing.T) {
	tmp, cache := t.TempDir(), t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "TICK_CACHE_DIR="+cache)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("starting tick wrote %v to the shared temporary directory", entries)
	}
}

func TestExportCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tour")
	var out, errOut bytes.Buffer
	if code := run([]string{"export", "../../notebook/export/testdata/tour.ipynb", "-o", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"wrote " + filepath.Join(dir, "main.go"), "wrote " + filepath.Join(dir, "go.mod"), "imports tick's packages", "run it: cd " + dir + " && go run ."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout %q lacks %q", out.String(), want)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil || !strings.Contains(string(src), "func main() {") {
		t.Errorf("main.go: %v\n%s", err, src)
	}
	if mod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.HasPrefix(string(mod), "module tour\n") ||
		!strings.Contains(string(mod), "replace github.com/tick-kernel/tick => ") {
		t.Errorf("go.mod = %q, want tick replaced by the source this binary was built from", mod)
	}
	// As printed: cd DIR && go run . (no go mod edit, no tidy by hand).
	if testing.Short() {
		t.Skip("go run of the exported program: not in -short")
	}
	goRun := exec.Command("go", "run", ".")
	goRun.Dir = dir
	if b, err := goRun.CombinedOutput(); err != nil {
		t.Errorf("go run . in %s: %v\n%s", dir, err, b)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "which notebook?"},
		{[]string{"export", filepath.Join(dir, "nope.ipynb")}, "cannot open the notebook"},
		{[]string{"export", "a.ipynb", "b.ipynb"}, "one notebook at a time"},
	} {
		errOut.Reset()
		if code := run(tc.args, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// tick run names a cell by one number, its execution count, in the
// progress line, the failure and the error's position alike (a markdown
// cell and an empty code cell before it do not make a second number).
func TestRunNamesCellsByOneNumber(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "fail.ipynb")
	cells := []map[string]any{
		{"cell_type": "markdown", "id": "m", "metadata": map[string]any{}, "source": "# notes"},
		{"cell_type": "code", "id": "a", "metadata": map[string]any{}, "source": "x := 1", "outputs": []any{}, "execution_count": nil},
		{"cell_type": "code", "id": "e", "metadata": map[string]any{}, "source": "", "outputs": []any{}, "execution_count": nil},
		{"cell_type": "code", "id": "b", "metadata": map[string]any{}, "source": "var s []int\ns[3] = x", "outputs": []any{}, "execution_count": nil},
	}
	b, _ := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": cells})
	if err := os.WriteFile(nb, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"run", nb, "-o", filepath.Join(dir, "out.ipynb")}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut.String())
	}
	text := out.String() + errOut.String()
	for _, want := range []string{"cell[2]   var s []int", "cell[2] (var s []int) failed:", "cell[2]:2:"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "cell 4") || strings.Contains(text, "cell[4]") {
		t.Errorf("the failing cell is named by a second number:\n%s", text)
	}
}
