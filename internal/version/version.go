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

var once sync.Once

// Commit returns the commit tick was built from, or "unknown". It prefers
// the value set by -ldflags and falls back to the VCS stamp of the build.
func Commit() string {
	once.Do(func() {
		if commit != "" {
			return
		}
		commit = "unknown"
		info, ok := debug.ReadBuildInfo()
		if !ok {
			return
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			}
		}
	})
	return commit
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
