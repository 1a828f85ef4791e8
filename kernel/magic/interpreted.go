package magic

import (
	"context"
	"fmt"
	goscanner "go/scanner"
	"go/token"
	"strings"
	"time"

	"github.com/tick-kernel/tick/profile"
	"github.com/tick-kernel/tick/timing"
)

// WarnInterpreted is the warning that the statement's time is mostly the
// interpreter running Go code, not compiled code.
const WarnInterpreted timing.WarningKind = "interpreted-code"

// interpretedMin is the share of the statement's CPU time in the
// interpreter from which %timeit warns; attributionTimes are how long the
// CPU profile that measures it runs (after the samples, outside them): a
// second, longer profile when the first got too few samples (on a loaded
// machine the process may have had the CPU for a fraction of the time).
const interpretedMin = 0.5

var attributionTimes = [...]time.Duration{300 * time.Millisecond, time.Second}

const attributionMin = 5 // CPU profile samples needed to say anything

// interpretedWarning profiles the timed statement briefly, after the
// measurement, when it may run interpreted Go (a loop, a func literal, a
// call of a function an ordinary cell declared), and returns a warning
// when most of its CPU time is the interpreter's: its median then says
// more about yaegi than about the code.
func interpretedWarning(ctx context.Context, stmt string, t timedStmt, r *timing.Result) *timing.Warning {
	if !mayInterpret(stmt, t.Interpreted) || r.Loops == 0 {
		return nil
	}
	share, n, ok := attribute(ctx, t.Call, r.Loops)
	if !ok {
		return nil
	}
	w := &timing.Warning{Kind: WarnInterpreted,
		Message: fmt.Sprintf("%.0f%% of the statement's CPU time is the interpreter running Go code (a CPU profile of %d samples, taken after the measurement): "+
			"this time is mostly yaegi's, which runs loops and calls many times slower than compiled Go; "+
			"its overhead is %s per loop even for an empty statement (the floor)",
			100*share, n, timing.FormatDuration(r.Floor, 3)),
		Fix: "to time the code compiled, define it in a %%go cell and time the call to it, or %bench a func BenchmarkX(b *testing.B) (docs/compiled-go.md)"}
	nameShims(w, stdShims(stmt))
	return w
}

// attribute measures the interpreter's share of call(loops)'s CPU time,
// with a longer profile when the first got too few samples; ok when the
// share is known and at least interpretedMin.
func attribute(ctx context.Context, call func(int) error, loops int) (share float64, n int, ok bool) {
	var err error
	for _, d := range attributionTimes {
		if share, n, err = interpretedShare(ctx, call, loops, d); err != nil || n >= attributionMin {
			break
		}
	}
	return share, n, err == nil && n >= attributionMin && share >= interpretedMin
}

// benchInterpretedWarning is %bench's interpreted-code warning: a
// benchmark declared in an ordinary cell runs interpreted, and so does
// every function of a cell it calls, tick's generic shims included.
func benchInterpretedWarning(ctx context.Context, call func(int) error, backend string, r *timing.Result) *timing.Warning {
	if !strings.HasPrefix(backend, "interpreted") || r.Loops == 0 {
		return nil
	}
	// The benchmark is interpreted whatever a profile finds; the profile
	// says how much of its time that is, when it gets enough samples.
	measured := "the benchmark runs interpreted"
	if share, n, ok := attribute(ctx, call, r.Loops); ok {
		measured = fmt.Sprintf("%.0f%% of the benchmark's CPU time is the interpreter running Go code (a CPU profile of %d samples, taken after the measurement)", 100*share, n)
	}
	return &timing.Warning{Kind: WarnInterpreted,
		Message: measured + ": it was declared in an ordinary cell, so it runs interpreted, and so does what it calls there — tick's slices, maps and cmp " +
			"functions too, which are generic Go interpreted in every session (yaegi cannot load compiled generic functions)",
		Fix: "declare the benchmark in a %%go cell (compiled, with the standard library's own slices and maps), or call compiled " +
			"functions from it (slices.Sort → sort.Ints, sort.Float64s or sort.Strings; slices.SortFunc → sort.Slice)"}
}

// shimAlternatives are compiled functions that do what one of tick's
// interpreted shims does.
var shimAlternatives = map[string]string{
	"slices.Sort":     "sort.Ints, sort.Float64s or sort.Strings",
	"slices.SortFunc": "sort.Slice",
	"slices.Reverse":  "a for loop swapping ends, in a %%go cell",
	"maps.Keys":       "a for range loop over the map",
	"maps.Values":     "a for range loop over the map",
}

// stdShims lists the calls in stmt of tick's interpreted shims of the
// standard library's generic packages (slices, maps, cmp: see
// kernel/session/stdgo), as "pkg.Func".
func stdShims(stmt string) []string {
	var s goscanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(stmt)), []byte(stmt), nil, 0)
	var out []string
	var prev [2]string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return uniq(out)
		}
		if tok == token.IDENT && prev[1] == "." && (prev[0] == "slices" || prev[0] == "maps" || prev[0] == "cmp") {
			out = append(out, prev[0]+"."+lit)
		}
		if tok == token.PERIOD {
			prev = [2]string{prev[1], "."}
		} else {
			prev = [2]string{prev[1], lit}
		}
	}
}

// nameShims adds to w which of tick's interpreted shims the code calls,
// and their compiled alternatives.
func nameShims(w *timing.Warning, shims []string) {
	if len(shims) == 0 {
		return
	}
	w.Message += fmt.Sprintf("; %s %s tick's own generic code, interpreted in every session (yaegi cannot load compiled generic functions), "+
		"not the standard library's compiled one", strings.Join(shims, ", "), map[bool]string{true: "is", false: "are"}[len(shims) == 1])
	var alts []string
	for _, f := range shims {
		if a, ok := shimAlternatives[f]; ok {
			alts = append(alts, f+" → "+a)
		}
	}
	fix := "call compiled code instead"
	if len(alts) > 0 {
		fix += " (" + strings.Join(alts, "; ") + ")"
	}
	w.Fix = fix + ", or " + w.Fix
}

// mayInterpret reports whether stmt can run interpreted Go beyond its own
// few operations: a loop or func literal in it, or a call of a function
// that runs interpreted (interpreted: the engine's list of them).
func mayInterpret(stmt string, interpreted []string) bool {
	if len(interpreted) > 0 || len(stdShims(stmt)) > 0 {
		return true
	}
	var s goscanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(stmt)), []byte(stmt), nil, 0)
	for {
		_, tok, _ := s.Scan()
		if tok == token.EOF {
			return false
		}
		if tok == token.FOR || tok == token.FUNC || tok == token.GO {
			return true
		}
	}
}

// interpretedShare runs call(loops) under a CPU profile for about d and
// returns the share of the statement's samples whose
// innermost frame (runtime frames skipped: allocation, scheduling) is the
// interpreter's, and the number of samples.
func interpretedShare(ctx context.Context, call func(int) error, loops int, d time.Duration) (float64, int, error) {
	gp, err := profile.TakeGoProfile(ctx, d, func() error { return call(loops) })
	if err != nil {
		return 0, 0, err
	}
	vi, err := profile.SampleIndex(gp.CPU, "samples") // the count of each stack
	if err != nil {
		return 0, 0, err
	}
	var interp, total int64
	for _, s := range profile.Summarize(gp.CPU, vi) {
		if len(s.Frames) == 0 || s.Frames[0] != profile.RootStatement {
			continue
		}
		total += s.Value
		for i := len(s.Frames) - 1; i >= 1; i-- {
			f := s.Frames[i]
			if strings.HasPrefix(f, "runtime.") {
				continue
			}
			if f == profile.InterpretedFrame {
				interp += s.Value
			}
			break
		}
	}
	if total == 0 {
		return 0, 0, nil
	}
	return float64(interp) / float64(total), int(total), nil
}
