package timing

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWarnings builds one synthetic workload per warning and checks that the
// warning fires there and nowhere on the clean workload.
func TestWarnings(t *testing.T) {
	clean := func() (*workload, Options) {
		w := newWorkload(10 * time.Microsecond)
		w.jit = true
		return w, Options{Clock: w.c, Budget: 300 * time.Millisecond}
	}
	cases := []struct {
		name  string
		kind  WarningKind
		setup func(w *workload, o *Options)
	}{
		{"compilation in the first call", WarnColdDominates, func(w *workload, o *Options) {
			w.coldHost = 5 * time.Millisecond
		}},
		{"one sample 5× slower (caching)", WarnWorstBest, func(w *workload, o *Options) {
			o.Progress = func(p Progress) {
				w.scale = 1
				if p.Phase == PhaseMeasured && p.Done == 10 {
					w.scale = 5 // the 11th sample
				}
			}
		}},
		{"samples vary ±30%", WarnHighVariation, func(w *workload, o *Options) {
			rng := rand.New(rand.NewPCG(3, 4))
			o.Progress = func(p Progress) {
				if p.Phase == PhaseMeasured || p.Phase == PhaseCalibrate {
					w.scale = 0.7 + 0.6*rng.Float64()
				}
			}
		}},
		{"three samples", WarnTooFewSamples, func(w *workload, o *Options) { o.Repeats = 3 }},
		{"sync=none on an async device", WarnEnqueueOnly, func(w *workload, o *Options) {
			w.async, w.host, w.device = true, time.Microsecond, 10*time.Microsecond
			o.Sync = SyncNone
		}},
		{"DEBUG=2", WarnDebugActive, func(w *workload, o *Options) { w.debug = 2 }},
		{"GC inside the statement", WarnGC, func(w *workload, o *Options) {
			w.gcInCall = true
			o.Loops, o.Repeats, o.GC = 1, 8, GCKeep
		}},
		{"coarse clock, one loop", WarnNearResolution, func(w *workload, o *Options) {
			w.c.res = 10 * time.Microsecond
			w.host = 100 * time.Microsecond
			o.Loops, o.Repeats = 1, 10
		}},
		{"statement cheaper than the loop", WarnNearFloor, func(w *workload, o *Options) {
			w.host = 60 * time.Nanosecond // 50 ns loop + 10 ns body
			w.jit = false
			o.Floor = &Target{Call: func(n int) error { w.c.t += time.Duration(n) * 50; return nil }, Sync: w.sync}
		}},
		{"JIT never replays", WarnNoReplay, func(w *workload, o *Options) { w.noReplay = true }},
	}
	w, o := clean()
	// The collector off while sampling: the workload allocates nothing, but
	// garbage the test binary's other goroutines leave can start a
	// collection inside a sample (1 run in 5 at load 20 failed so).
	o.GC = GCOff
	r, err := Measure(context.Background(), w.target(), o)
	if err != nil {
		t.Fatal(err)
	}
	// A test binary is never stamped with a commit: that warning is about
	// the build, not the workload (TestUnidentifiedBuildWarning).
	r.Warnings = slices.DeleteFunc(r.Warnings, func(w Warning) bool { return w.Kind == WarnUnidentifiedBuild })
	if len(r.Warnings) != 0 {
		t.Fatalf("clean workload warned: %v", r.Warnings)
	}
	seen := map[WarningKind]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, o := clean()
			c.setup(w, &o)
			r, err := Measure(context.Background(), w.target(), o)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Has(c.kind) {
				t.Fatalf("no %s warning; got %v", c.kind, r.Warnings)
			}
			for _, wn := range r.Warnings {
				if wn.Kind == c.kind {
					if wn.Message == "" || wn.Fix == "" {
						t.Errorf("warning without cause or fix: %+v", wn)
					}
					if text := strings.Join(strings.Fields(r.Text(3)), " "); !strings.Contains(text, "warning: "+wn.Message) { // lines wrap between words
						t.Errorf("Text does not show the warning")
					}
				}
			}
			seen[c.kind] = true
		})
	}
	for _, k := range []WarningKind{WarnColdDominates, WarnWorstBest, WarnHighVariation, WarnTooFewSamples,
		WarnEnqueueOnly, WarnDebugActive, WarnGC, WarnNearResolution, WarnNearFloor, WarnNoReplay} {
		if !seen[k] {
			t.Errorf("warning kind %s has no workload that triggers it", k)
		}
	}
}

// TestSyncNoneReportsEnqueue checks that --sync=none on an async device
// reports the enqueue time (host cost), while --sync=sample reports the
// device time.
func TestSyncNoneReportsEnqueue(t *testing.T) {
	for _, c := range []struct {
		mode SyncMode
		want float64
	}{{SyncNone, 1000}, {SyncSample, 10000}, {SyncIter, 11000}} { // iter: host and device no longer overlap
		w := newWorkload(time.Microsecond)
		w.async, w.device = true, 10*time.Microsecond
		r, err := Measure(context.Background(), w.target(), Options{Clock: w.c, Sync: c.mode, Budget: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Stats.Median
		if got < 0.98*c.want || got > 1.02*c.want {
			t.Errorf("sync=%s: median %v ns, want about %v", c.mode, got, c.want)
		}
	}
}

// TestUnidentifiedBuildWarning: a result from a build with no commit says
// so in its provenance and warns with the command that fixes it; an
// identified build does not.
func TestUnidentifiedBuildWarning(t *testing.T) {
	for _, c := range []struct {
		commit, source string
		warn           bool
	}{
		{"unidentified build", "none", true},
		{"abc1234", "ldflags", false},
		{"v0.1.1-0.20261201000000-0123456789ab", "module", false},
	} {
		r := &Result{Provenance: Provenance{Tick: "0.1.0", Commit: c.commit, CommitSource: c.source}}
		w, ok := warningOf(Diagnose(r), WarnUnidentifiedBuild)
		if ok != c.warn || ok && !strings.Contains(w.Fix, "-ldflags \"-X github.com/tick-kernel/tick/internal/version.commit=$(git rev-parse --short HEAD)\"") {
			t.Errorf("%s build: warning %v (%q), want %v with the build command", c.source, ok, w, c.warn)
		}
		if line := r.Provenance.Line(); !strings.Contains(line, "tick 0.1.0 ("+c.commit+")") {
			t.Errorf("provenance line %q lacks %q", line, c.commit)
		}
	}
}
