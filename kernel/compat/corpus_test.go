package compat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// workerBatch is how many programs one worker process runs: a fresh
// process now and then bounds what programs leave behind (goroutines,
// file descriptors).
const workerBatch = 60

// programTimeout is how long one program may run in a worker before the
// worker is killed and the program counted as hung.
const programTimeout = 30 * time.Second

// knownFile lists the programs tick gets wrong, each with the reason.
const knownFile = "testdata/known.txt"

// TestYaegiCorpus runs yaegi's test programs through go, tick and plain
// yaegi and enforces the rule: every program plain yaegi gets right, tick
// gets right; every program tick gets wrong is in knownFile with the
// reason; no program in knownFile passes. It logs the counts (run it with
// -v to see them).
func TestYaegiCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes the interpreters ~10x slower; the corpus is a semantics check, run without -race")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain: the programs cannot be compared with go run")
	}
	dir, version := yaegiModuleDir(t)
	progs := corpusPrograms(t, dir)
	if len(progs) < 500 {
		t.Fatalf("found %d programs with an Output comment in %s/_test, expected about 850", len(progs), dir)
	}
	refs := references(t, progs, version)
	var runnable []program
	excluded := map[string]int{}
	for _, p := range progs {
		if s := refs[p.name].Status; s != refOK {
			excluded[s]++
			continue
		}
		runnable = append(runnable, p)
	}
	warmCompiled(t, runnable)
	start := time.Now()
	slots := make(chan struct{}, runtime.NumCPU())
	var tick, yaegi map[string]outcome
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); tick = runEngine(t, engineTick, dir, runnable, slots) }()
	go func() { defer wg.Done(); yaegi = runEngine(t, engineYaegi, dir, runnable, slots) }()
	wg.Wait()
	known := readKnown(t)
	pass := func(o outcome, p program) bool { return o.Err == "" && o.Output == refs[p.name].Output }

	// Programs whose outcome goes against the rule run once more, in fresh
	// workers: a program that depends on timing may lose a race once.
	var again []program
	for _, p := range runnable {
		okT, okY := pass(tick[p.name], p), pass(yaegi[p.name], p)
		_, listed := known[p.name]
		if okT == listed || !okY && !listed {
			again = append(again, p)
		}
	}
	if len(again) > 0 && len(again) < 100 {
		var t2, y2 map[string]outcome
		wg.Add(2)
		go func() { defer wg.Done(); t2 = runEngine(t, engineTick, dir, again, slots) }()
		go func() { defer wg.Done(); y2 = runEngine(t, engineYaegi, dir, again, slots) }()
		wg.Wait()
		for _, p := range again {
			_, listed := known[p.name]
			// keep the second outcome when it agrees with the list
			if pass(t2[p.name], p) != listed {
				tick[p.name] = t2[p.name]
			}
			if pass(y2[p.name], p) {
				yaegi[p.name] = y2[p.name]
			}
		}
	}

	var nTick, nYaegi, regressions, fixed int
	var report []string
	for _, p := range runnable {
		okT, okY := pass(tick[p.name], p), pass(yaegi[p.name], p)
		if okT {
			nTick++
		}
		if okY {
			nYaegi++
		}
		if okT && !okY {
			fixed++
		}
		reason, listed := known[p.name]
		switch {
		case okT && listed:
			t.Errorf("%s: tick prints what go run prints now: remove it from %s (%q)", p.name, knownFile, reason)
		case !okT && okY && !strings.HasPrefix(reason, "regression") && listed:
			t.Errorf("%s: plain yaegi gets it right, so tick must: mark its line in %s as a regression or fix it", p.name, knownFile)
		case !okT && okY && !listed:
			t.Errorf("%s: regression: plain yaegi prints what go run prints, tick does not\n%s", p.name, describe(p, refs[p.name], tick[p.name]))
		case !okT && !listed:
			t.Errorf("%s: tick and plain yaegi both get it wrong: list it in %s with the reason\n%s", p.name, knownFile, describe(p, refs[p.name], tick[p.name]))
		}
		if !okT && okY {
			regressions++
		}
		report = append(report, fmt.Sprintf("%s\t%v\t%v\t%d\t%d\t%s\t%s", p.name, okT, okY,
			tick[p.name].Millis, yaegi[p.name].Millis, oneLine(tick[p.name].Err), oneLine(yaegi[p.name].Err)))
	}
	for name := range known {
		if refs[name].Status != refOK {
			t.Errorf("%s is in %s but not a program of the corpus (go run: %q)", name, knownFile, refs[name].Status)
		}
	}
	if path := os.Getenv("TICK_COMPAT_REPORT"); path != "" {
		head := "program\ttick\tyaegi\ttick_ms\tyaegi_ms\ttick_err\tyaegi_err\n"
		if err := os.WriteFile(path, []byte(head+strings.Join(report, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	var ex []string
	for s, n := range excluded {
		ex = append(ex, fmt.Sprintf("%s %d", s, n))
	}
	sort.Strings(ex)
	t.Logf("yaegi corpus: %d programs with an Output comment; go run runs %d of them (not: %s)", len(progs), len(runnable), strings.Join(ex, ", "))
	t.Logf("yaegi corpus: tick %d / plain yaegi %d / go run %d print what go run prints; tick gets %d right that yaegi does not, and %d wrong that yaegi gets right (%.0f s)",
		nTick, nYaegi, len(runnable), fixed, regressions, time.Since(start).Seconds())
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// describe says how tick's outcome differs from go run's.
func describe(p program, ref reference, o outcome) string {
	var b strings.Builder
	if o.Err != "" {
		fmt.Fprintf(&b, "\ttick error: %s\n", o.Err)
	}
	if o.Output != ref.Output {
		fmt.Fprintf(&b, "\ttick printed:\n%s\n\tgo run printed:\n%s", indent(o.Output), indent(ref.Output))
	}
	return b.String()
}

func indent(s string) string {
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return "\t\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t\t")
}

// readKnown reads knownFile: "name: reason" lines; # starts a comment.
func readKnown(t *testing.T) map[string]string {
	b, err := os.ReadFile(knownFile)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, reason, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s:%d: want \"name: reason\", got %q", knownFile, i+1, l)
		}
		known[strings.TrimSpace(name)] = strings.TrimSpace(reason)
	}
	return known
}

// runEngine runs the programs through engine in worker processes, one
// batch per worker, at most cap(slots) workers at once (shared with the
// other engine).
func runEngine(t *testing.T, engine, dir string, progs []program, slots chan struct{}) map[string]outcome {
	var mu sync.Mutex
	res := map[string]outcome{}
	var wg sync.WaitGroup
	for i := 0; i < len(progs); i += workerBatch {
		batch := progs[i:min(i+workerBatch, len(progs))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			for len(batch) > 0 {
				done := runWorker(t, engine, filepath.Join(dir, "_test"), batch)
				mu.Lock()
				for _, o := range done {
					res[o.Name] = o
				}
				mu.Unlock()
				batch = batch[len(done):]
			}
		}()
	}
	wg.Wait()
	return res
}

// runWorker starts a worker and runs the programs in order until one
// hangs or ends the worker (its outcome says so; it is the last one
// returned) or all ran.
func runWorker(t *testing.T, engine, dir string, progs []program) []outcome {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorker$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), workerEnv+"="+engine)
	cmd.ExtraFiles = []*os.File{reqR, resW}
	var stderr tail
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	resW.Close()
	lines := make(chan outcome)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var o outcome
			if json.Unmarshal(sc.Bytes(), &o) == nil {
				lines <- o
			}
		}
	}()
	var out []outcome
	defer func() {
		reqW.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		resR.Close()
	}()
	for _, p := range progs {
		if _, err := fmt.Fprintln(reqW, p.path); err != nil {
			return append(out, outcome{Name: p.name, Err: "worker: " + err.Error()})
		}
		select {
		case o, ok := <-lines:
			if !ok {
				return append(out, outcome{Name: p.name, Err: "the process ended: " + stderr.String()})
			}
			o.Name = p.name
			out = append(out, o)
		case <-time.After(programTimeout):
			return append(out, outcome{Name: p.name, Err: fmt.Sprintf("still running after %v", programTimeout)})
		}
	}
	return out
}

// tail keeps the last 2 kB written to it.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > 2048 {
		w.b = w.b[len(w.b)-2048:]
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(bytes.TrimSpace(w.b))
}
