//go:build !cgo

package app_test

import (
	"strings"
	"testing"

	"github.com/tick-kernel/tick/kernel/app"
	"github.com/tick-kernel/tick/kernel/session"
)

// Without cgo there are no plugins: %%go says so, and what to do.
func TestCompiledUnavailableWithoutCgo(t *testing.T) {
	r := &run{t: t, r: must(app.New(session.Options{}))}
	_, err := r.cell("%%go\nfunc F() int { return 1 }\n")
	if err == nil || !strings.Contains(err.Value, "compiled Go is unavailable in this tick: it was built with CGO_ENABLED=0") {
		t.Fatalf("%%%%go without cgo: %v", err)
	}
}
