package gocompile

import (
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestHostSourceDir: plugins of a binary built from a checkout are built
// against that checkout, whatever version the go command stamped on it; a
// released version is fetched as that version. (CI builds bin/tick in a
// clone with VCS stamping on, which makes the main module's version a
// pseudo-version nothing serves: every plugin build failed there with
// "missing go.sum entry" while builds without the stamp passed.)
func TestHostSourceDir(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if sourceDir() != repo {
		t.Skipf("tick's source is not found from this test binary's file paths (-trimpath?): %q", sourceDir())
	}
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "4a8001ee0e3baf212f6d046980101a7bdc06c87d"}}
	for _, c := range []struct {
		name, version, source string
		settings              []debug.BuildSetting
		want                  string
	}{
		{"built without VCS stamping", "(devel)", "", nil, repo},
		{"built in a clone, VCS stamped", "v0.0.0-20261202094724-4a8001ee0e3b", "", vcs, repo},
		{"built in a modified clone", "v0.0.0-20261202094724-4a8001ee0e3b+dirty", "", vcs, repo},
		{"go install of a release", "v1.2.3", "", nil, ""},
		{"TICK_SOURCE", "v1.2.3", "/src/tick", nil, "/src/tick"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: tickModule, Version: c.version}, Settings: c.settings,
			Deps: []*debug.Module{{Path: "github.com/google/uuid", Version: "v1.6.0"}}}
		if got := hostFrom(bi, c.source).MainDir; got != c.want {
			t.Errorf("%s (%s): MainDir %q, want %q", c.name, c.version, got, c.want)
		}
	}
}
