package main

import (
	"bytes"
	"os"
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
		{name: "install", args: []string{"install", "--name", "tick-cli", "--prefix", prefix}, code: 0, stdout: "installed kernelspec",
			check: func() bool { _, err := os.Stat(spec); return err == nil }, checkMsg: "kernel.json written"},
		{name: "uninstall", args: []string{"install", "--name", "tick-cli", "--prefix", prefix, "--uninstall"}, code: 0, stdout: "removed",
			check: func() bool { _, err := os.Stat(spec); return os.IsNotExist(err) }, checkMsg: "kernel.json removed"},
		{name: "run a missing notebook", args: []string{"run", filepath.Join(prefix, "nope.ipynb")}, code: 2, stderr: "cannot open the notebook"},
		{name: "run usage", args: []string{"run"}, code: 2, stderr: "want exactly one notebook"},
		{name: "uninstall again", args: []string{"install", "--name", "tick-cli", "--prefix", prefix, "--uninstall"}, code: 1, stderr: "nothing to remove"},
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
