package gocompile

import (
	"fmt"
	"strings"
)

// UnsupportedError reports that this tick binary cannot load compiled
// packages (Go plugins): built without cgo, or on a platform without
// plugin support.
type UnsupportedError struct{ Reason string }

func (e *UnsupportedError) Error() string {
	return "gocompile: compiled Go is unavailable in this tick: " + e.Reason
}

// ToolchainError reports a go command that cannot build plugins for this
// binary: none on PATH, or another Go version than the binary's.
type ToolchainError struct {
	Want string // the binary's Go version
	Have string // the go command's version ("" when there is none)
	Path string // the go command looked for or found
	Err  error  // why it could not be run, when it could not
}

func (e *ToolchainError) Error() string {
	if e.Have == "" {
		return fmt.Sprintf("gocompile: no go command (%s: %v): compiling needs the Go toolchain tick was built with (%s); "+
			"install it and put its bin directory on PATH (or set TICK_GO to the go command), then run the cell again", e.Path, e.Err, e.Want)
	}
	return fmt.Sprintf("gocompile: the go command %s is %s, but this tick was built with %s: a plugin must be built by the same "+
		"toolchain as the binary that loads it; put %s first on PATH (or set TICK_GO), or rebuild tick with %s", e.Path, e.Have, e.Want, e.Want, e.Have)
}

// FetchError reports a module the go command could not fetch.
type FetchError struct {
	Module string // what was asked for (MODULE[@VERSION] or a package path)
	Output string // the go command's message
}

func (e *FetchError) Error() string {
	return fmt.Sprintf("gocompile: cannot fetch %s: %s\n(check the path and version; the module proxy is GOPROXY=%s; %%go get MODULE@VERSION picks a version)",
		e.Module, lastLines(e.Output, 3), goproxy())
}

// ConflictError reports a module version that would change one of tick's
// own dependencies: the binary links one version of each package, and a
// plugin must use the same.
type ConflictError struct {
	Asked  string // what the user asked for
	Module string // tick's dependency
	Tick   string // the version tick was built with
	Wanted string // the version the asked module needs
	By     string // module@version that requires Wanted ("" when unknown)
}

func (e *ConflictError) Error() string {
	if modulePart(e.Asked) == e.Module {
		return fmt.Sprintf("gocompile: %s: this tick was built with %s %s, and a compiled package must use the binary's version "+
			"of every package it shares with it, so the session keeps %s; nothing was changed. To use %s %s, rebuild tick with it "+
			"(go get %s@%s in tick's source, then go build ./cmd/tick)", e.Asked, e.Module, e.Tick, e.Tick, e.Module, e.Wanted, e.Module, e.Wanted)
	}
	by, mod := "", modulePart(e.Asked)
	if e.By != "" {
		by = " (required by " + e.By + ")"
		if m := modulePart(e.By); strings.HasPrefix(e.Asked, m+"/") {
			mod = m // a package of the module that requires it: %go get takes the module
		}
	}
	return fmt.Sprintf("gocompile: %s needs %s %s%s, but this tick was built with %s %s, and a compiled package must use the "+
		"binary's version of every package it shares with it; nothing was changed. Pick a version of %s that works with %s %s "+
		"(%%go get %s@VERSION), or rebuild tick with %s %s",
		e.Asked, e.Module, e.Wanted, by, e.Module, e.Tick, mod, e.Module, e.Tick, mod, e.Module, e.Wanted)
}

// BuildError reports a failed go build (or symbol generation) of a
// package; Output is the compiler's, with positions of cells mapped to
// the cell.
type BuildError struct {
	Package string
	Output  string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("gocompile: building %s failed:\n%s", e.Package, strings.TrimSpace(e.Output))
}

// LoadError reports a plugin the binary could not load.
type LoadError struct {
	Package string
	Err     error
	Hint    string
}

func (e *LoadError) Error() string {
	s := fmt.Sprintf("gocompile: loading %s: %v", e.Package, e.Err)
	if e.Hint != "" {
		s += "\n" + e.Hint
	}
	return s
}

func (e *LoadError) Unwrap() error { return e.Err }

func modulePart(s string) string {
	m, _, _ := strings.Cut(s, "@")
	return m
}

// lastLines is the last n non-empty lines of s.
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
