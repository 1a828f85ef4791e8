package rt

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// Runaway recursion ends its goroutine with runtime.Goexit, not with a
// panic unwound through every frame. yaegi recovers and re-panics in each
// interpreted frame, and each re-panic walks a stack as deep as the
// recursion: unwinding 5,000 calls of a closure took 10–90 s (quadratic in
// the depth), long enough to look like a dead kernel. Goexit runs the same
// deferred calls (the interpreted functions' defers, Leave's count) with
// nothing to re-panic, in linear time.
//
// Past the limit, enter panics once with DepthSignal; the frame that
// called it recovers, reports its position (yaegi's frame line, which
// names where the function starts) and re-panics; the next Leave on that
// goroutine, in the frame above, calls Goexit. That is done only on
// goroutines whose end tick expects: a piece of a cell (started by Go, the
// session turns its Goexit into the depth error with TakeEnded) and a
// goroutine a go statement of a cell started (its error goes to GoPanic).
// Anywhere else (a magic calling a compiled loop on its own goroutine, a
// library calling back into interpreted code) the panic unwinds as before.

// unwind is a goroutine runaway recursion is ending.
type unwind struct {
	gid  uint64
	sig  DepthSignal
	cell bool // a goroutine a go statement started; else a piece of the cell
}

// exceeded is enter past the limit: it panics with DepthSignal, marking
// the goroutine to end at its next Leave when it may.
func (r *Runtime) exceeded() {
	sig := DepthSignal{r.maxDepth + 1}
	switch goroutineEntry() {
	case entryPiece:
		r.unwind.Store(&unwind{gid: GoroutineID(), sig: sig})
	case entryGoStmt:
		r.unwind.Store(&unwind{gid: GoroutineID(), sig: sig, cell: true})
	}
	panic(sig)
}

// unwinding ends the goroutine u marks, when Leave runs on it.
func (r *Runtime) unwinding(u *unwind) {
	if u.gid != GoroutineID() || !r.unwind.CompareAndSwap(u, nil) {
		return
	}
	if u.cell {
		r.hooks.GoPanic(u.sig)
	} else {
		r.ended.Store(&u.sig)
	}
	runtime.Goexit()
}

// TakeEnded returns the depth signal of the piece of the cell runaway
// recursion ended with runtime.Goexit, once.
func (r *Runtime) TakeEnded() (DepthSignal, bool) {
	if s := r.ended.Swap(nil); s != nil {
		return *s, true
	}
	return DepthSignal{}, false
}

// Go runs f on a new goroutine that runs a piece of the cell: runaway
// recursion there ends it with runtime.Goexit (TakeEnded says so).
func (r *Runtime) Go(f func()) { go runPiece(f) }

// runPiece is the first frame of a piece's goroutine, the mark
// goroutineEntry looks for.
//
//go:noinline
func runPiece(f func()) { f() }

var pieceEntry = runtime.FuncForPC(reflect.ValueOf(runPiece).Pointer()).Name()

// Kinds of goroutine, by the function that started it.
const (
	entryOther  = iota
	entryPiece  // runPiece: a piece of the cell
	entryGoStmt // yaegi's: a go statement of interpreted code
)

// goroutineEntry classifies the calling goroutine by its outermost
// function. It reads the whole stack, once per runaway recursion.
func goroutineEntry() int {
	pcs := make([]uintptr, 1<<16)
	for {
		n := runtime.Callers(0, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	var names []string
	frames := runtime.CallersFrames(pcs[max(0, len(pcs)-4):])
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			break
		}
	}
	if len(names) < 2 || names[len(names)-1] != "runtime.goexit" {
		return entryOther
	}
	switch entry := names[len(names)-2]; {
	case entry == pieceEntry:
		return entryPiece
	case strings.HasPrefix(entry, "github.com/traefik/yaegi/interp."):
		return entryGoStmt
	}
	return entryOther
}

// GoroutineID returns the id of the calling goroutine, from its stack's
// header line ("goroutine 23 [running]:").
func GoroutineID() uint64 {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	s, ok := strings.CutPrefix(s, "goroutine ")
	if !ok {
		return 0
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	id, _ := strconv.ParseUint(s, 10, 64)
	return id
}
