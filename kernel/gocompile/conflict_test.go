package gocompile

import (
	"strings"
	"testing"
)

// TestConflictErrorNamesTheModule: the advice names the module to %go get,
// not the package asked for (golang.org/x/exp, not
// golang.org/x/exp/slices, whose @VERSION the go command refuses).
func TestConflictErrorNamesTheModule(t *testing.T) {
	e := &ConflictError{Asked: "golang.org/x/exp/slices", Module: "golang.org/x/sync", Tick: "v0.23.0", Wanted: "v0.24.0",
		By: "golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4"}
	msg := e.Error()
	for _, want := range []string{
		"golang.org/x/exp/slices needs golang.org/x/sync v0.24.0 (required by golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4)",
		"Pick a version of golang.org/x/exp that works with golang.org/x/sync v0.23.0 (%go get golang.org/x/exp@VERSION)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}
