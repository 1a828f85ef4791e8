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
	var share float64
	var n int
	var err error
	for _, d := range attributionTimes {
		if share, n, err = interpretedShare(ctx, t.Call, r.Loops, d); err != nil || n >= attributionMin {
			break
		}
	}
	if err != nil || n < attributionMin || share < interpretedMin {
		return nil
	}
	return &timing.Warning{Kind: WarnInterpreted,
		Message: fmt.Sprintf("%.0f%% of the statement's CPU time is the interpreter running Go code (a CPU profile of %d samples, taken after the measurement): "+
			"this time is mostly yaegi's, which runs loops and calls many times slower than compiled Go; "+
			"its overhead is %s per loop even for an empty statement (the floor)",
			100*share, n, timing.FormatDuration(r.Floor, 3)),
		Fix: "to time the code compiled, define it in a %%go cell and time the call to it, or %bench a func BenchmarkX(b *testing.B) (docs/compiled-go.md)"}
}

// mayInterpret reports whether stmt can run interpreted Go beyond its own
// few operations: a loop or func literal in it, or a call of a function
// that runs interpreted (interpreted: the engine's list of them).
func mayInterpret(stmt string, interpreted []string) bool {
	if len(interpreted) > 0 {
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
