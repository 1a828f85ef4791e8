package magic

import (
	"testing"

	"github.com/tick-kernel/tick/timing"
)

// TestBuildWarningOncePerKernel: of the results one kernel shows, only the
// first carries the unidentified-build warning.
func TestBuildWarningOncePerKernel(t *testing.T) {
	prev := buildWarned.Swap(false)
	defer buildWarned.Store(prev)
	mk := func() *timing.Result {
		return &timing.Result{Warnings: []timing.Warning{{Kind: timing.WarnHighVariation}, {Kind: timing.WarnUnidentifiedBuild}}}
	}
	first, second, third := mk(), mk(), mk()
	onceBuildWarning(first)
	onceBuildWarning(second, third)
	for i, c := range []struct {
		r    *timing.Result
		want int
	}{{first, 2}, {second, 1}, {third, 1}} {
		if len(c.r.Warnings) != c.want || c.r.Warnings[0].Kind != timing.WarnHighVariation {
			t.Errorf("result %d: warnings %v, want %d (the build warning only on the first)", i+1, c.r.Warnings, c.want)
		}
	}
}
