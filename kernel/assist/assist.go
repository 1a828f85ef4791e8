// Package assist is tick's code assistant: completion and inspection that
// know Go. It type-checks (go/types) the declarations of the cells that
// ran, plus the cell being typed up to the cursor, tolerating the errors
// of unfinished code, with packages loaded from their source (the standard
// library from GOROOT, tick's own packages from tick's source tree, their
// modules from the module cache). Docs come from go/doc over the same
// source and from the // comments of the user's cells.
//
// It reads the session only through Scope, and knows nothing of yaegi or
// Jupyter: kernel/session adapts its answers (session.Completion,
// session.Inspection).
package assist

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

// Scope is what the assistant reads from a session.
type Scope interface {
	// Ran returns the Go code of the cells that ran, from index from on
	// (the list only grows).
	Ran(from int) []string
	// Value is a short description of the current value of the session
	// variable name ("= 42"), false when the session has none.
	Value(name string) (string, bool)
}

// Match is one completion.
type Match struct {
	Text string
	// Kind is what the match is: function, method, variable, field,
	// constant, type, module (a package), keyword, path (an import
	// path), magic.
	Kind string
	// Signature is its type or signature ("func(s string) string").
	Signature string
}

// Completion is the answer to a completion request: Matches replace
// code[Start:End] (byte offsets).
type Completion struct {
	Matches    []Match
	Start, End int
}

// Help is the answer to an inspection: the same text as plain text and
// as Markdown.
type Help struct {
	Found          bool
	Text, Markdown string
}

// Options configure an Assistant. The zero value finds everything itself.
type Options struct {
	// TickSource is tick's module root (for docs and types of
	// tick/...); empty means where this binary was built from, or
	// $TICK_SOURCE.
	TickSource string
	// CacheDir keeps the standard library's types between runs; empty
	// means the user cache directory (tick/assist), "-" no disk cache.
	CacheDir string
	// Packages are the packages cells can import: import path →
	// package name (the session's symbol tables).
	Packages map[string]string
	// Dir, when set, finds the source directory of other packages
	// (modules imported through compiled Go).
	Dir func(path string) (string, bool)
}

// Assistant answers completion and inspection for one session. It is
// safe for concurrent use.
type Assistant struct {
	scope Scope
	*loader
	pkgs *pkgIndex

	reqMu sync.Mutex  // one request at a time: checks share the model's objects
	used  atomic.Bool // a request came (Refresh works only then)
	// Failure is the last panic a request recovered from (for bug
	// reports); nil when none.
	failure atomic.Value
	mu      sync.Mutex // guards model
	model   *model
}

// loader is what every assistant of a process shares: packages loaded
// from source (types and docs) are the same for every session, and
// loading them is the expensive part.
type loader struct {
	fset    *token.FileSet
	imp     *importer
	docs    docCache
	warm    sync.Once
	writing sync.Mutex  // one cache writer at a time
	pending atomic.Bool // a cache write is asked for
	// background counts the goroutines loading packages, writing the
	// cache or refreshing a model (WaitIdle).
	background atomic.Int32
	// held counts the Holds not released: while it is above 0, the
	// warm-up waits before each package it would check from source.
	held atomic.Int32
}

var (
	loadersMu sync.Mutex
	loaders   = map[[2]string]*loader{} // by tick source and cache directory
)

// New returns an assistant reading scope. Call Warm to load the
// packages most cells use before the first request needs them.
func New(scope Scope, opts Options) *Assistant {
	root := opts.TickSource
	if root == "" {
		root = tickSource()
	}
	cache := opts.CacheDir
	if cache == "" {
		cache = filepath.Join(privdir.Root(), "assist")
	}
	if cache == "-" {
		cache = ""
	}
	loadersMu.Lock()
	l, ok := loaders[[2]string{root, cache}]
	if !ok {
		fset := token.NewFileSet()
		l = &loader{fset: fset, imp: newImporter(fset, root)}
		l.imp.cache = l.imp.cacheDir(cache)
		if l.imp.cache != "" && privdir.Ensure(l.imp.cache) != nil {
			l.imp.cache = "" // not the user's alone: its types are not trusted (internal/privdir)
		}
		l.imp.checked = l.writeSoon
		l.docs.init()
		loaders[[2]string{root, cache}] = l
	}
	loadersMu.Unlock()
	if opts.Dir != nil {
		l.imp.setExtra(opts.Dir)
	}
	return &Assistant{scope: scope, loader: l, pkgs: newPkgIndex(opts.Packages), model: &model{}}
}

// recoverTo turns a panic in a request into an empty answer: the
// assistant must never take the session down.
func recoverTo[T any](a *Assistant, res *T) {
	if r := recover(); r != nil {
		var zero T
		*res = zero
		a.failure.Store(fmt.Sprint(r))
	}
}

// RefreshInBackground refreshes the model (Refresh) on a goroutine of
// its own that WaitIdle waits for.
func (a *Assistant) RefreshInBackground() {
	a.background.Add(1)
	go func() {
		defer a.background.Add(-1)
		a.Refresh()
	}()
}

// WaitIdle waits until no package load, cache write or refresh of the
// assistant's runs in the background, at most max, polling stop (an
// interrupt), and returns how long it waited. A timing magic calls it
// before it measures: type-checking a package from source takes seconds
// of CPU and allocates millions of objects, which a measurement beside it
// would count as its own (the first %timeit after a kernel started read
// 750 allocations per call of a statement that makes one).
func (a *Assistant) WaitIdle(max time.Duration, stop func() bool) time.Duration {
	a.imp.urgent.Add(1) // held work runs: it is what this waits for
	defer a.imp.urgent.Add(-1)
	t0 := time.Now()
	for a.background.Load() > 0 && time.Since(t0) < max && (stop == nil || !stop()) {
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(t0)
}

// Failure is the last panic a request recovered from ("" when none).
func (a *Assistant) Failure() string {
	s, _ := a.failure.Load().(string)
	return s
}

// warmPackages are loaded by Warm: what most notebooks import.
// Small ones first: a request that needs one of them does not wait
// behind fmt's and os's large dependencies.
var warmPackages = []string{"strings", "strconv", "errors", "math", "sort", "time", "fmt", "os",
	"tick/runtime/tensor", "tick/display", "tick/timing"}

// Warm loads, in the background, the packages most cells import (from
// the disk cache when they are there), then writes to the cache the
// packages that were checked from source. Only the first
// call in a process does anything.
//
// The warm-up yields to running cells (Hold): type-checking a package
// from source takes seconds of CPU when the cache is cold (a fresh
// install), and on two cores a cell timing its own loop by hand would
// share the CPUs with it (notebook 01's first hand-made timing read 283 µs
// per call instead of 8–18 µs so).
func (a *Assistant) Warm() {
	a.warm.Do(func() {
		a.background.Add(1)
		go func() {
			defer a.background.Add(-1)
			for _, p := range warmPackages {
				a.imp.importGated(p, a.yield)
			}
			a.yield()
			a.writeCache()
		}()
	})
}

// Hold pauses the background warm-up (Warm) until release is called:
// the session holds the assistant while a cell runs, so the cell has the
// CPUs to itself. The package being checked when Hold is called finishes
// (tens of milliseconds at most: the warm-up waits before each package,
// its dependencies included). Requests are not held: a completion that
// needs a package the warm-up is loading, or WaitIdle, lets it run.
// release may be called more than once.
func (a *Assistant) Hold() (release func()) {
	a.held.Add(1)
	var once sync.Once
	return func() { once.Do(func() { a.held.Add(-1) }) }
}

// Held reports whether a Hold is in force (the warm-up is paused).
func (a *Assistant) Held() bool { return a.held.Load() > 0 }

// yield waits while the assistant is held and nobody waits for the
// background work.
func (l *loader) yield() {
	for l.held.Load() > 0 && l.imp.urgent.Load() == 0 {
		time.Sleep(2 * time.Millisecond)
	}
}
