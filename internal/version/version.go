// Package version reports which tick this is: its version and the commit it
// was built from, for `tick version`, kernel_info and timing provenance.
package version

import (
	"runtime/debug"
	"sync"
)

// Version is tick's release version.
const Version = "0.1.0"

// commit is set at build time:
//
//	go build -ldflags "-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD)"
var commit string

var (
	once         sync.Once
	commitSource string
)

// Unidentified is Commit's value for a build that records no commit.
const Unidentified = "unidentified build"

// FixCommand is the command that builds an identified tick from a git
// checkout (./run.sh and ./test.sh build this way).
const FixCommand = `go build -ldflags "-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD)" -o bin/tick ./cmd/tick`

// Commit returns the commit tick was built from, or Unidentified. The
// value set by -ldflags wins; otherwise it is the VCS stamp of the build
// (runtime/debug.ReadBuildInfo's vcs.revision, with "+modified" when the
// work tree had changes); otherwise the main module's version, when the
// binary was built from a module version (go install …@version).
// CommitSource says which.
func Commit() string {
	once.Do(func() {
		var settings []debug.BuildSetting
		var module string
		if info, ok := debug.ReadBuildInfo(); ok {
			settings, module = info.Settings, info.Main.Version
		}
		commit, commitSource = commitFrom(commit, settings, module)
	})
	return commit
}

// CommitSource says where Commit came from: "ldflags", "vcs", "module",
// or "none" (a build with none of them: -buildvcs=false, as GOFLAGS sets on
// some machines, or outside a git checkout; `go test` binaries are never
// stamped).
func CommitSource() string {
	Commit()
	return commitSource
}

// commitFrom chooses the commit from the -ldflags value, the build's
// settings and the main module's version ("(devel)" or "" when built from
// a work tree).
func commitFrom(ldflags string, settings []debug.BuildSetting, module string) (commit, source string) {
	if ldflags != "" {
		return ldflags, "ldflags"
	}
	rev, modified := "", false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		if module != "" && module != "(devel)" {
			return module, "module"
		}
		return Unidentified, "none"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "+modified"
	}
	return rev, "vcs"
}

// Module returns the version of a dependency module as recorded in the
// binary's build information (for example "github.com/traefik/yaegi"), or
// "unknown".
func Module(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, m := range info.Deps {
		if m.Path == path {
			return m.Version
		}
	}
	return "unknown"
}
