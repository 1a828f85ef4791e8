package main

import (
	"strings"
	"testing"
)

// TestIsJupyterConsole: only jupyter console's own command lines turn the
// console watch on; other parents that sit in a terminal (IPython driving
// jupyter_client, notebook servers, nbclient) never do.
func TestIsJupyterConsole(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want bool
	}{
		{[]string{"/usr/bin/python3", "/usr/bin/jupyter-console", "--kernel", "tick"}, true},
		{[]string{"/usr/local/bin/jupyter-console"}, true},
		{[]string{"python3", "-m", "jupyter_console", "--kernel=tick"}, true},
		{[]string{"/usr/bin/python3", "/usr/bin/ipython3"}, false},
		{[]string{"/usr/bin/python3", "/usr/bin/jupyter-notebook", "--no-browser"}, false},
		{[]string{"/usr/bin/python3", "/usr/bin/jupyter-execute", "nb.ipynb"}, false},
		{[]string{"/usr/bin/python3", "-m", "nbclient", "x", "jupyter-console"}, false},
		{[]string{"/usr/bin/python3", "/usr/bin/euporie-console"}, false},
		{nil, false},
	} {
		cmdline := []byte(strings.Join(c.argv, "\x00") + "\x00")
		if got := isJupyterConsole(cmdline); got != c.want {
			t.Errorf("isJupyterConsole(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}
