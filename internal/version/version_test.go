package version

import (
	"runtime/debug"
	"testing"
)

func TestCommitFrom(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		ldflags        string
		settings       []debug.BuildSetting
		module         string
		commit, source string
	}{
		{"abc1234", vcs, "v0.1.0", "abc1234", "ldflags"}, // -ldflags wins
		{"", vcs, "v0.1.0", "0123456789ab", "vcs"},       // the VCS stamp, shortened
		{"", dirty, "", "0123456789ab+modified", "vcs"},
		{"", nil, "v0.1.1-0.20261201000000-0123456789ab", "v0.1.1-0.20261201000000-0123456789ab", "module"}, // go install …@version
		{"", nil, "(devel)", Unidentified, "none"},                                                          // -buildvcs=false or no checkout
		{"", nil, "", Unidentified, "none"},
	} {
		commit, source := commitFrom(c.ldflags, c.settings, c.module)
		if commit != c.commit || source != c.source {
			t.Errorf("commitFrom(%q, %v) = %q, %q; want %q, %q", c.ldflags, c.settings, commit, source, c.commit, c.source)
		}
	}
}
