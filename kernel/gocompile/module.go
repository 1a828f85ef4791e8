package gocompile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"
)

// noVersion is the pseudo-version required for modules replaced by a
// directory.
const noVersion = "v0.0.0-00010101000000-000000000000"

// newSessionModule creates this session's module directory under
// root/sessions, locked for the life of the process (directories of
// sessions that ended are removed), with a go.mod that requires every
// module the binary was built with, at its version.
func (b *Builder) newSessionModule(ctx context.Context) error {
	sessions := filepath.Join(b.root, "sessions")
	pruneSessions(sessions)
	dir, err := os.MkdirTemp(sessions, "s-")
	if err != nil {
		return fmt.Errorf("gocompile: creating the session module: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err == nil {
		err = lockFile(lock)
	}
	if err != nil {
		return fmt.Errorf("gocompile: locking the session module: %w", err)
	}
	b.lock = lock // kept open (and referenced: a collected *os.File closes): the lock lives as long as the process
	b.sess = dir
	var extra []string
	if b.host.MainDir != "" {
		// tick's own requirements too: the module graph is pruned, so the
		// session module must require every module whose packages it
		// builds, not only those linked into this binary.
		m, err := b.readModFile(ctx, filepath.Join(b.host.MainDir, "go.mod"))
		if err != nil {
			return err
		}
		b.required = map[string]string{}
		for _, r := range m.Require {
			b.required[r.Path] = r.Version
			extra = append(extra, r.Path+" "+r.Version)
			if b.host.depsFromSource {
				b.host.Deps = append(b.host.Deps, &debug.Module{Path: r.Path, Version: r.Version})
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.goMod(extra)), 0o600); err != nil {
		return fmt.Errorf("gocompile: writing the session module: %w", err)
	}
	if b.host.MainDir != "" {
		if sum, err := os.ReadFile(filepath.Join(b.host.MainDir, "go.sum")); err == nil {
			if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o600); err != nil {
				return fmt.Errorf("gocompile: writing the session module: %w", err)
			}
		}
	}
	return nil
}

// pruneSessions removes the module directories of sessions whose process
// ended (their lock is free).
func pruneSessions(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(filepath.Join(p, ".lock"), os.O_RDWR, 0)
		if err != nil {
			if fi, serr := os.Stat(p); serr == nil && time.Since(fi.ModTime()) > time.Hour {
				os.RemoveAll(p) // never locked: a session that failed to start
			}
			continue
		}
		if tryLockFile(f) {
			os.RemoveAll(p)
		}
		f.Close()
	}
}

// goMod is the session module's go.mod: the binary's modules pinned.
// extra are more "path version" requirements (tick's go.mod's), for
// modules the binary does not link.
func (b *Builder) goMod(extra []string) string {
	h := b.host
	var req, rep []string
	linked := map[string]bool{}
	for _, d := range h.Deps {
		if d.Path == tickModule {
			continue
		}
		linked[d.Path] = true
		req = append(req, fmt.Sprintf("\t%s %s", d.Path, d.Version))
		if r := d.Replace; r != nil {
			rep = append(rep, fmt.Sprintf("replace %s => %s %s", d.Path, r.Path, r.Version))
		}
	}
	for _, e := range extra {
		if p, _, _ := strings.Cut(e, " "); !linked[p] && p != tickModule {
			req = append(req, "\t"+e)
		}
	}
	switch {
	case h.MainDir != "":
		req = append(req, "\t"+tickModule+" "+noVersion)
		rep = append(rep, fmt.Sprintf("replace %s => %s", tickModule, h.MainDir))
	case h.MainVersion != "" && h.MainVersion != "(devel)":
		req = append(req, "\t"+tickModule+" "+h.MainVersion)
	}
	// The toolchain's own version: "go 1.26" would be older than a
	// dependency's "go 1.26.0" and make the go command ask for a tidy.
	lang := strings.TrimPrefix(h.GoVersion, "go")
	return fmt.Sprintf("// The session module of a tick kernel: every module tick was built with, at its version.\nmodule %s\n\ngo %s\n\nrequire (\n%s\n)\n\n%s\n",
		SessionModule, lang, strings.Join(req, "\n"), strings.Join(rep, "\n"))
}

// goRun runs the go command in the session module. Lines it writes to
// stderr go to line (when set) as they come.
func (b *Builder) goRun(ctx context.Context, line func(string), args ...string) (stdout, stderr string, err error) {
	cmd := exec.CommandContext(ctx, b.goCmd, args...)
	cmd.Dir = b.sess
	cmd.Env = append(os.Environ(), b.host.buildEnv()...)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(&errb, pw)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if line != nil {
				line(sc.Text())
			}
		}
	}()
	err = cmd.Run()
	pw.Close()
	<-done
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return out.String(), errb.String(), err
}

// modFile is the part of `go mod edit -json` the builder reads.
type modFile struct {
	Module  struct{ Path string }
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

func (b *Builder) readModFile(ctx context.Context, file string) (*modFile, error) {
	out, errs, err := b.goRun(ctx, nil, "mod", "edit", "-json", file)
	if err != nil {
		return nil, fmt.Errorf("gocompile: reading %s: %v: %s", file, err, errs)
	}
	var m modFile
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		return nil, fmt.Errorf("gocompile: reading %s: %w", file, err)
	}
	return &m, nil
}

// get runs `go get args` in the session module and undoes it when it
// would change the version of a module the binary was built with.
func (b *Builder) get(ctx context.Context, p Progress, asked string, args ...string) (string, error) {
	start := time.Now()
	gomod, gosum := filepath.Join(b.sess, "go.mod"), filepath.Join(b.sess, "go.sum")
	oldMod, _ := os.ReadFile(gomod)
	oldSum, _ := os.ReadFile(gosum)
	restore := func() {
		os.WriteFile(gomod, oldMod, 0o600)
		os.WriteFile(gosum, oldSum, 0o600)
	}
	p.emit(start, "fetching", asked)
	_, errs, err := b.goRun(ctx, func(l string) { p.emit(start, "fetching", strings.TrimPrefix(l, "go: ")) }, append([]string{"get"}, args...)...)
	if err != nil {
		restore()
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if m, v, _ := strings.Cut(asked, "@"); b.required[m] != "" && strings.Contains(errs, tickModule) {
			// A version tick's go.mod cannot go with (a downgrade below its
			// requirement would need another tick).
			return "", &ConflictError{Asked: asked, Module: m, Tick: b.required[m], Wanted: v}
		}
		if strings.Contains(errs, "requires go >=") {
			return "", fmt.Errorf("gocompile: %s needs a newer Go than this tick's %s: %s", asked, b.host.GoVersion, lastLines(errs, 2))
		}
		return "", &FetchError{Module: asked, Output: errs}
	}
	m, err := b.readModFile(ctx, gomod)
	if err != nil {
		restore()
		return "", err
	}
	pinned := map[string]string{}
	for _, d := range b.host.Deps {
		if d.Replace == nil {
			pinned[d.Path] = d.Version
		}
	}
	for _, r := range m.Require {
		if want, ok := pinned[r.Path]; ok && r.Version != want {
			graph, _, _ := b.goRun(ctx, nil, "mod", "graph")
			restore()
			return "", &ConflictError{Asked: asked, Module: r.Path, Tick: want, Wanted: r.Version, By: requirer(graph, r.Path+"@"+r.Version)}
		}
	}
	return strings.TrimSpace(errs), nil
}

// requirer finds in `go mod graph` output a module that requires target
// (other than the session module).
func requirer(graph, target string) string {
	for _, l := range strings.Split(graph, "\n") {
		from, to, ok := strings.Cut(l, " ")
		if ok && to == target && !strings.HasPrefix(from, SessionModule) {
			return from
		}
	}
	return ""
}

// Get runs `go get` for MODULE[@VERSION] arguments in the session module:
// later imports use those versions. A version that would change one of
// tick's own dependencies is refused with a *ConflictError.
func (b *Builder) Get(ctx context.Context, p Progress, args ...string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return "", err
	}
	if len(args) == 0 {
		return "", errors.New("gocompile: go get needs a module: %go get MODULE[@VERSION]")
	}
	pinned := map[string]string{}
	for _, d := range b.host.Deps {
		pinned[d.Path] = d.Version
	}
	for _, a := range args {
		if m, v, ok := strings.Cut(a, "@"); ok && pinned[m] != "" && v != pinned[m] && v != "none" {
			return "", &ConflictError{Asked: a, Module: m, Tick: pinned[m], Wanted: v}
		} else if ok && pinned[m] != "" && v == "none" {
			return "", fmt.Errorf("gocompile: %s: tick itself is built with %s %s, so it stays in the session", a, m, pinned[m])
		}
		if strings.HasPrefix(a, "-") {
			return "", fmt.Errorf("gocompile: go get %s: flags are not supported here; give MODULE[@VERSION] arguments", a)
		}
		if modulePart(a) == tickModule {
			return "", fmt.Errorf("gocompile: %s is the running tick itself: its version is the binary's", a)
		}
	}
	return b.get(ctx, p, strings.Join(args, " "), args...)
}

// Use makes the Go module in directory dir (a local module, like `go work
// use`) the source of its module path in this session: its packages are
// imported from dir, and an import after an edit builds a new version. It
// returns the module path.
func (b *Builder) Use(ctx context.Context, dir string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("gocompile: %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
		return "", fmt.Errorf("gocompile: %s has no go.mod: a local module is a directory with a go.mod (go mod init MODULE there)", abs)
	}
	m, err := b.readModFile(ctx, filepath.Join(abs, "go.mod"))
	if err != nil {
		return "", err
	}
	mod := m.Module.Path
	for _, d := range b.host.Deps {
		if d.Path == mod {
			return "", fmt.Errorf("gocompile: %s is %s, which tick itself is built with (%s): the binary links that version, so a local copy cannot replace it", abs, mod, d.Version)
		}
	}
	gomod, gosum := filepath.Join(b.sess, "go.mod"), filepath.Join(b.sess, "go.sum")
	oldMod, _ := os.ReadFile(gomod)
	oldSum, _ := os.ReadFile(gosum)
	if _, errs, err := b.goRun(ctx, nil, "mod", "edit", "-replace="+mod+"="+abs); err != nil {
		return "", fmt.Errorf("gocompile: using %s: %v: %s", abs, err, errs)
	}
	// go get of the replaced module adds its requirements, refused (and
	// undone) when they would change a module tick is built with.
	if _, err := b.get(ctx, nil, mod+" (from "+abs+")", mod+"@"+noVersion); err != nil {
		os.WriteFile(gomod, oldMod, 0o600)
		os.WriteFile(gosum, oldSum, 0o600)
		return "", err
	}
	return mod, nil
}

// Requirements are the session module's requirements beyond tick's own,
// and its local modules, as "path version" and "path => dir" lines.
func (b *Builder) Requirements(ctx context.Context) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.check(ctx); err != nil {
		return nil, err
	}
	m, err := b.readModFile(ctx, filepath.Join(b.sess, "go.mod"))
	if err != nil {
		return nil, err
	}
	pinned := map[string]bool{tickModule: true}
	for _, d := range b.host.Deps {
		pinned[d.Path] = true
	}
	var out []string
	local := map[string]string{}
	for _, r := range m.Replace {
		if r.New.Version == "" && !pinned[r.Old.Path] {
			local[r.Old.Path] = r.New.Path
		}
	}
	for _, r := range m.Require {
		switch {
		case local[r.Path] != "":
			out = append(out, r.Path+" => "+local[r.Path])
		case !pinned[r.Path]:
			out = append(out, r.Path+" "+r.Version)
		}
	}
	sort.Strings(out)
	return out, nil
}
