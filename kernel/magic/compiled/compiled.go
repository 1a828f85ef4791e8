// Package compiled is compiled Go in the notebook: the session's Importer
// for modules (built as plugins by kernel/gocompile, with a progress line
// while they build) and the magics %go (get, use, list, env) and %%go (a
// cell compiled with the Go compiler, its exports brought into the
// interpreted cells' scope).
package compiled

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/gocompile"
	"github.com/tick-kernel/tick/kernel/magic"
	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/kernel/session/cell"
	"github.com/tick-kernel/tick/kernel/session/symbols/std"
)

// Go is compiled Go in one notebook session: the session's Importer for
// modules and the magics %go and %%go.
type Go struct {
	b *gocompile.Builder
}

var _ session.Importer = (*Go)(nil)

// New returns compiled Go on builder b.
func New(b *gocompile.Builder) *Go { return &Go{b: b} }

// Builder is the builder underneath (for Loaded: the compiled packages).
func (c *Go) Builder() *gocompile.Builder { return c.b }

// Import is the session's Importer: it builds the package at path as a
// plugin (or takes it from the cache) and returns its symbols.
func (c *Go) Import(ctx context.Context, path string, sink session.Sink) (session.Imported, error) {
	if strings.HasPrefix(path, gocompile.SessionModule+"/") {
		return session.Imported{}, nil // a %%go cell's package: registered by %%go
	}
	first := strings.Split(path, "/")[0]
	if !strings.Contains(first, ".") && !slices.Contains(std.Compiled, path) {
		// neither a module path nor a standard package left out of the
		// interpreter's tables: the interpreter's unknown-package error
		return session.Imported{}, session.ErrNotProvided
	}
	prog := newBuildProgress(sink, "import "+path)
	pkg, changed, err := c.b.Import(ctx, path, prog.event)
	if err != nil {
		prog.clear()
		var nf *gocompile.NotFoundError
		if errors.As(err, &nf) {
			return session.Imported{}, fmt.Errorf("no module provides it: %s", userText(nf.Msg))
		}
		return session.Imported{}, errors.New(userText(err.Error()))
	}
	if changed {
		prog.done(importSummary(pkg))
	}
	return session.Imported{Symbols: pkg.Symbols, Changed: changed}, nil
}

// importSummary is the line an import leaves: what was loaded, from where.
func importSummary(p *gocompile.Package) string {
	what := p.Path
	if p.Version != "" && !p.Local {
		what += " " + p.Version
	}
	if p.Local {
		what += " (local module " + p.Module + ")"
		if p.Generation > 1 {
			what += fmt.Sprintf(", version %d of this session: its source changed since the last import; values of its earlier types keep them", p.Generation)
		}
	}
	if !strings.Contains(strings.Split(p.Path, "/")[0], ".") {
		what += " (Go's standard library, not built into tick's interpreter)"
	}
	how := "compiled as a plugin"
	if p.Cached {
		how = "compiled plugin from the cache"
	}
	return fmt.Sprintf("imported %s: %s in %s", what, how, secs(p.Took))
}

func secs(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// userText drops the package prefix of gocompile's errors: the cell's
// error already says what failed.
func userText(s string) string { return strings.ReplaceAll(s, "gocompile: ", "") }

// Magics returns %go (line: get, use, list, env) and %%go (a compiled
// cell).
func (c *Go) Magics() []magic.Magic {
	return []magic.Magic{{Name: "go", Line: true, Cell: true, Help: magic.Help("go"),
		Summary: "compiled Go: %%go compiles a cell with the Go compiler; %go get/use/list/env manage the modules cells import",
		Run: func(ctx context.Context, call *magic.Call) (magic.Output, error) {
			if call.IsCell {
				return magic.Output{}, c.cell(ctx, call)
			}
			return magic.Output{}, c.line(ctx, call)
		}}}
}

const goUsage = "%go get MODULE[@VERSION]... | %go use DIR | %go list | %go env   (and %%go on a cell's first line to compile the cell)"

// line runs %go SUBCOMMAND.
func (c *Go) line(ctx context.Context, call *magic.Call) error {
	args := strings.Fields(call.Args)
	bad := func(opt, reason string) error {
		return &magic.UsageError{Magic: "go", Option: opt, Reason: reason, Usage: goUsage}
	}
	if len(args) == 0 {
		return bad("SUBCOMMAND", "say what to do: get, use, list or env")
	}
	if args[0] == "work" && len(args) > 1 && args[1] == "use" { // go work use DIR
		args = args[1:]
	}
	out := func(s string) { call.Sink.Stream("stdout", strings.TrimRight(s, "\n")+"\n") }
	switch args[0] {
	case "get":
		prog := newBuildProgress(call.Sink, "go get")
		res, err := c.b.Get(ctx, prog.event, args[1:]...)
		prog.clear()
		if err != nil {
			return errors.New(userText(err.Error()))
		}
		out(firstNonEmpty(strings.ReplaceAll(res, "go: ", ""), "nothing to change: "+strings.Join(args[1:], " ")+" is already required at that version"))
	case "use":
		if len(args) != 2 {
			return bad("DIR", "give one directory: the root of a Go module (it has a go.mod)")
		}
		mod, err := c.b.Use(ctx, args[1])
		if err != nil {
			return errors.New(userText(err.Error()))
		}
		out(fmt.Sprintf("using %s from %s: import its packages as %s/...; after you edit it, importing again builds a new version", mod, args[1], mod))
	case "list":
		return c.list(ctx, out)
	case "env":
		out(c.env(ctx))
	default:
		return bad(args[0], "unknown subcommand: use get, use, list or env")
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// list shows the modules added to the session and the loaded packages.
func (c *Go) list(ctx context.Context, out func(string)) error {
	reqs, err := c.b.Requirements(ctx)
	if err != nil {
		return errors.New(userText(err.Error()))
	}
	var b strings.Builder
	b.WriteString("modules added to this session (besides tick's own, at the versions tick was built with):\n")
	if len(reqs) == 0 {
		b.WriteString("  none\n")
	}
	for _, r := range reqs {
		if !strings.HasPrefix(r, "tick.v") {
			fmt.Fprintf(&b, "  %s\n", r)
		}
	}
	b.WriteString("compiled packages loaded (plugins stay loaded until the kernel restarts):\n")
	loaded := c.b.Loaded()
	if len(loaded) == 0 {
		b.WriteString("  none\n")
	}
	for _, p := range loaded {
		v := p.Version
		if p.Local || v == "" {
			v = fmt.Sprintf("version %d", p.Generation)
		}
		src := "built"
		if p.Cached {
			src = "from the cache"
		}
		fmt.Fprintf(&b, "  %s %s (%s, %s)\n", p.Path, v, src, secs(p.Took))
	}
	out(b.String())
	return nil
}

// env describes the toolchain, the build settings plugins match and where
// they are cached.
func (c *Go) env(ctx context.Context) string {
	if err := c.b.Check(ctx); err != nil {
		return "compiled Go is unavailable: " + userText(err.Error())
	}
	h := c.b.Host()
	cache, sess := c.b.Dirs()
	src := h.MainDir
	if src == "" {
		src = "not found (built with -trimpath? set TICK_SOURCE): %%go cells cannot import tick's packages"
	}
	var flags []string
	for _, k := range []string{"-trimpath", "-race", "-tags", "-gcflags", "CGO_ENABLED", "GOARCH", "GOAMD64"} {
		if v, ok := h.Settings[k]; ok {
			flags = append(flags, k+"="+v)
		}
	}
	return fmt.Sprintf("go command   %s (%s, the version tick was built with)\nbuild        %s\ntick source  %s\nplugin cache %s\nsession      %s (go.mod pins %d modules tick was built with)",
		c.b.GoCommand(), h.GoVersion, strings.Join(flags, " "), src, cache, sess, len(h.Deps))
}

// cell runs %%go: compile the body as a package, load it, and bring its
// exported names into the interpreted cells' scope.
func (c *Go) cell(ctx context.Context, call *magic.Call) error {
	eng := call.Eval
	if strings.TrimSpace(call.Args) != "" {
		return &magic.UsageError{Magic: "go", Option: call.Args, Reason: "%%go takes no arguments: the cell below the line is the Go file's body", Usage: goUsage}
	}
	if strings.TrimSpace(call.Body) == "" {
		return &magic.UsageError{Magic: "go", Option: "body", Reason: "the cell is empty: write imports and package-level declarations below %%go", Usage: goUsage}
	}
	pos := eng.Locate(call.Body)
	prog := newBuildProgress(call.Sink, fmt.Sprintf("%%%%go cell[%d]", call.Cell))
	pkg, replaced, err := c.b.Cell(ctx, gocompile.CellSource{N: call.Cell, Line: pos.Line, Col: pos.Col, Body: call.Body}, prog.event)
	prog.clear()
	if err != nil {
		var be *gocompile.BuildError
		if errors.As(err, &be) {
			return cell.Errorf(cell.CompileError, "%s", be.Output)
		}
		return errors.New(userText(err.Error()))
	}
	if err := eng.Use(pkg.Symbols); err != nil {
		return err
	}
	if usable(pkg) > 0 {
		if err := call.Eval.Exec(fmt.Sprintf("import . %q", pkg.Path)); err != nil {
			return fmt.Errorf("bringing the cell's names into scope: %w", err)
		}
	}
	call.Sink.Stream("stdout", cellSummary(call.Cell, pkg, replaced))
	return nil
}

// usable counts the exports interpreted cells can use (not generic).
func usable(p *gocompile.Package) int { return len(p.Exported) - len(p.Generic) }

// cellSummary says what a %%go cell defined and what it replaced.
func cellSummary(n int, p *gocompile.Package, replaced []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "compiled cell[%d] as package %s in %s", n, p.Name, secs(p.Took))
	if p.Cached {
		b.WriteString(" (plugin from the cache)")
	}
	names := without(p.Exported, p.Generic)
	if len(names) > 0 {
		fmt.Fprintf(&b, ": %s usable in the cells that follow", strings.Join(names, ", "))
	} else {
		b.WriteString(": it exports nothing that interpreted cells can use (export a name: start it with a capital letter)")
	}
	b.WriteString("\n")
	if len(p.Generic) > 0 {
		fmt.Fprintf(&b, "note: %s generic: later %%%%go cells can use it, interpreted cells cannot (the interpreter cannot instantiate compiled generics); export an instantiation for them, e.g. func MapInts(...) = Map[int, int]\n",
			plural(p.Generic, "is", "are"))
	}
	if len(replaced) > 0 {
		fmt.Fprintf(&b, "note: this replaces %s of an earlier %%%%go cell for the cells that follow (a new package version: the old one stays loaded). "+
			"Values made with the old types keep them and are not assignable to the new ones; interpreted functions defined before this cell still call the old versions\n",
			strings.Join(replaced, ", "))
	}
	return b.String()
}

func plural(names []string, one, many string) string {
	if len(names) == 1 {
		return names[0] + " " + one
	}
	return strings.Join(names, ", ") + " " + many
}

func without(xs, drop []string) []string {
	var out []string
	for _, x := range xs {
		keep := true
		for _, d := range drop {
			keep = keep && x != d
		}
		if keep {
			out = append(out, x)
		}
	}
	return out
}

// A build's progress line appears after progressAfter and is updated at
// most every progressEvery (as the timing magics' progress lines are).
const (
	progressAfter = 500 * time.Millisecond
	progressEvery = 250 * time.Millisecond
)

// buildProgress shows a build's progress as one line updated in place
// (after half a second), and replaces it with a summary when done.
type buildProgress struct {
	sink  session.Sink
	what  string
	id    string
	start time.Time
	last  time.Time
	mu    sync.Mutex
}

func newBuildProgress(sink session.Sink, what string) *buildProgress {
	return &buildProgress{sink: sink, what: what, start: time.Now()}
}

// event is the gocompile.Progress callback.
func (p *buildProgress) event(e gocompile.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < progressAfter || now.Sub(p.last) < progressEvery || e.Stage == "done" {
		return
	}
	p.last = now
	line := fmt.Sprintf("%s: %s %s · %.1f s…", p.what, e.Stage, e.Detail, e.Elapsed.Seconds())
	if e.Stage == "compiling" && e.Elapsed > 3*time.Second {
		line += " (a first plugin build compiles Go's runtime in plugin mode: it takes a while once, then the build cache has it)"
	}
	p.show(line)
}

func (p *buildProgress) show(line string) {
	d := display.Data{Bundle: display.Bundle{"text/plain": line}}
	if p.id == "" {
		p.id = "tick-build-" + uuid.NewString()
		d.ID = p.id
		p.sink.Publish(d)
		return
	}
	d.ID = p.id
	p.sink.Update(d)
}

// done leaves summary in place of the progress line, or as a display of
// its own when none was shown: never on the cell's stdout stream, which
// is the program's output (a pasted program prints exactly what go run
// prints; the note of how an import was served is the notebook's).
func (p *buildProgress) done(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.show(summary)
}

// clear blanks the progress line (an error follows, or a summary of its own).
func (p *buildProgress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.id != "" {
		p.sink.Update(display.Data{Bundle: display.Bundle{"text/plain": ""}, ID: p.id})
		p.id = ""
	}
}

// SourceDir is the source directory of the compiled package cells import
// at path (the latest version loaded), for the code assistant's types
// and docs (kernel/assist): the session asks its Importer for it.
func (c *Go) SourceDir(path string) (string, bool) {
	dir := ""
	for _, p := range c.b.Loaded() {
		if (p.Path == path || p.BuildPath == path) && p.Dir != "" {
			dir = p.Dir
		}
	}
	return dir, dir != ""
}
