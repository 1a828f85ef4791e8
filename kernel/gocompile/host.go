package gocompile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
)

// tickModule is tick's module path.
const tickModule = "github.com/tick-kernel/tick"

// Host is what a plugin must match: the toolchain, build settings and
// module versions the running binary was built with (from
// runtime/debug.ReadBuildInfo).
type Host struct {
	GoVersion string // runtime.Version(), e.g. go1.26.8
	// MainPath and MainVersion are the main module's; MainDir is tick's
	// source directory when the binary was built from source ("(devel)",
	// or a version stamped from the checkout's VCS).
	MainPath, MainVersion, MainDir string
	// Deps are the modules linked into the binary.
	Deps []*debug.Module
	// depsFromSource: the build information lists no modules (test
	// binaries of tick's own packages), so the session module takes them
	// from tick's go.mod, which the binary was built from.
	depsFromSource bool
	// Settings are the build settings (-trimpath, -race, -tags,
	// CGO_ENABLED, GOARCH, GOAMD64, ...).
	Settings map[string]string
}

// ReadHost reads the running binary's build information. source, when
// set, is tick's source directory (else it is found from the compiled-in
// file paths, which -trimpath removes).
func ReadHost(source string) (*Host, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, fmt.Errorf("gocompile: the running binary has no build information (built without module support?)")
	}
	return hostFrom(bi, source), nil
}

// hostFrom is ReadHost of the build information bi.
func hostFrom(bi *debug.BuildInfo, source string) *Host {
	h := &Host{GoVersion: runtime.Version(), MainPath: bi.Main.Path, MainVersion: bi.Main.Version,
		Deps: bi.Deps, Settings: map[string]string{}}
	for _, s := range bi.Settings {
		h.Settings[s.Key] = s.Value
	}
	if h.MainPath != tickModule {
		// A test binary of another module, or tick linked into another
		// program: tick is then one of the dependencies.
		for _, d := range bi.Deps {
			if d.Path == tickModule {
				h.MainVersion = d.Version
				if d.Replace != nil && d.Replace.Version == "" {
					h.MainDir = d.Replace.Path
				}
			}
		}
	}
	h.MainDir = firstNonEmpty(source, h.MainDir)
	if h.MainDir == "" && h.FromCheckout() {
		h.MainDir = sourceDir()
	}
	h.depsFromSource = len(h.Deps) == 0 && h.MainDir != "" && h.MainPath == tickModule
	return h
}

// FromCheckout reports whether the binary was built from a source tree
// rather than a module version the go command can fetch: "(devel)", or a
// version the go command derived from the checkout's VCS (Go 1.24 and
// later stamp a pseudo-version such as v0.0.0-20261202094724-4a8001ee0e3b,
// +dirty when modified, whenever a clone is built with VCS stamping on —
// the default; nothing serves that version, so plugins must be built
// against the checkout).
func (h *Host) FromCheckout() bool {
	return h.MainVersion == "" || h.MainVersion == "(devel)" || (h.MainPath == tickModule && h.Settings["vcs"] != "")
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// sourceDir finds tick's module root from this file's compiled-in path
// (absolute unless the binary was built with -trimpath).
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file))) // kernel/gocompile/host.go → module root
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(data), "module "+tickModule+"\n") {
		return dir
	}
	return ""
}

// Trimpath reports whether the binary was built with -trimpath.
func (h *Host) Trimpath() bool { return h.Settings["-trimpath"] == "true" }

// Race reports whether the binary was built with the race detector.
func (h *Host) Race() bool { return h.Settings["-race"] == "true" }

// Cgo reports whether the binary was built with cgo.
func (h *Host) Cgo() bool { return h.Settings["CGO_ENABLED"] == "1" }

// buildFlags are the go build flags that make a plugin's packages match
// the binary's: the settings that change compiled code.
func (h *Host) buildFlags() []string {
	var f []string
	for _, k := range []string{"-trimpath", "-race", "-msan", "-asan"} {
		if h.Settings[k] == "true" {
			f = append(f, k)
		}
	}
	for _, k := range []string{"-tags", "-gcflags", "-asmflags"} {
		if v := h.Settings[k]; v != "" {
			f = append(f, k+"="+v)
		}
	}
	return f
}

// buildEnv is the environment for the go command: the binary's target and
// cgo settings, the local toolchain only, no workspace, GOFLAGS cleared
// (the flags are passed explicitly so a user's GOFLAGS cannot make the
// plugin differ from the binary).
func (h *Host) buildEnv() []string {
	env := []string{"GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GO111MODULE=on", "CGO_ENABLED=1"}
	for _, k := range []string{"GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOEXPERIMENT",
		"CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS"} {
		if v, ok := h.Settings[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Key identifies the binary for the plugin cache: plugins built for one
// binary's toolchain, settings and versions are only ever loaded by it.
func (h *Host) Key() string {
	s := sha256.New()
	fmt.Fprintln(s, h.GoVersion, h.MainPath, h.MainVersion, h.MainDir)
	keys := make([]string, 0, len(h.Settings))
	for k := range h.Settings {
		if !strings.HasPrefix(k, "vcs.") && k != "-ldflags" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintln(s, k, h.Settings[k])
	}
	for _, d := range h.Deps {
		fmt.Fprintln(s, modString(d))
	}
	return hex.EncodeToString(s.Sum(nil))[:16]
}

func modString(m *debug.Module) string {
	s := m.Path + "@" + m.Version
	if m.Replace != nil {
		s += " => " + modString(m.Replace)
	}
	return s
}
