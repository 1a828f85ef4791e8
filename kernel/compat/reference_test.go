package compat

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// program is one file of yaegi's _test directory.
type program struct {
	name string // the file's name without .go
	path string // absolute path
	src  string
}

// The status of a program compiled by the Go toolchain.
const (
	refOK       = "ok"       // built, ran, exit 0, the same output twice
	refBuild    = "build"    // go build refused it
	refExit     = "exit"     // it exited with a non-zero status (a panic, os.Exit)
	refTimeout  = "timeout"  // it ran longer than refTimeoutAfter
	refUnstable = "unstable" // two runs printed different output
)

const refTimeoutAfter = 10 * time.Second

// reference is what `go run` makes of a program.
type reference struct {
	Status string
	Output string // stdout and stderr, in the order written
	Detail string // why, when Status is not ok
}

// yaegiModuleDir is the directory and version of the yaegi module go.mod
// pins, downloaded into the module cache if need be.
func yaegiModuleDir(t *testing.T) (dir, version string) {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/traefik/yaegi").Output()
	if err != nil {
		t.Fatalf("go mod download github.com/traefik/yaegi: %v", err)
	}
	var m struct{ Dir, Version, Error string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download -json: %v %s", err, m.Error)
	}
	return m.Dir, m.Version
}

// gopathComment marks programs that import packages from a GOPATH tree of
// their own (yaegi's test reads it): not programs a user pastes.
var gopathComment = regexp.MustCompile(`(?m)^// GOPATH:`)

// corpusPrograms returns the programs of dir/_test that yaegi's own test
// runs and compares with an "Output:" comment (its last comment), are
// package main, and need no GOPATH tree.
func corpusPrograms(t *testing.T, dir string) []program {
	files, err := filepath.Glob(filepath.Join(dir, "_test", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var progs []program
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if gopathComment.MatchString(src) {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, b, parser.ParseComments)
		if err != nil || file.Name.Name != "main" || len(file.Comments) == 0 {
			continue
		}
		if !strings.HasPrefix(file.Comments[len(file.Comments)-1].Text(), "Output:\n") {
			continue
		}
		progs = append(progs, program{name: strings.TrimSuffix(filepath.Base(f), ".go"), path: f, src: src})
	}
	return progs
}

// refCache is where references are kept between runs, by content: the Go
// version, the platform and the program's source.
func refCache(t *testing.T) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "tick", "yaegi-corpus", "go")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func refKey(p program) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s/%s\x00%s", runtime.Version(), runtime.GOOS, runtime.GOARCH, p.src)
	return fmt.Sprintf("%x", h.Sum(nil)[:12])
}

// references returns what `go run` prints for each program, from the
// cache or computed: all the programs not cached are built by one
// `go build` (one binary each, built in parallel by the go command) and
// run twice each, NumCPU at a time.
func references(t *testing.T, progs []program, yaegiVersion string) map[string]reference {
	cache := refCache(t)
	refs := map[string]reference{}
	var todo []program
	for _, p := range progs {
		b, err := os.ReadFile(filepath.Join(cache, refKey(p)+".json"))
		var r reference
		if err == nil && json.Unmarshal(b, &r) == nil && r.Status != "" {
			refs[p.name] = r
			continue
		}
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return refs
	}
	start := time.Now()
	built := buildPrograms(t, todo, yaegiVersion)
	var mu sync.Mutex
	jobs := make(chan program)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				r := built[p.name]
				if r.Status == refOK {
					r = runReference(r.Detail, filepath.Dir(p.path))
				}
				mu.Lock()
				refs[p.name] = r
				mu.Unlock()
				if b, err := json.Marshal(r); err == nil {
					_ = os.WriteFile(filepath.Join(cache, refKey(p)+".json"), b, 0o644)
				}
			}
		}()
	}
	for _, p := range todo {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	t.Logf("go run references: %d programs built and run in %.0f s (%d were cached)", len(todo), time.Since(start).Seconds(), len(progs)-len(todo))
	return refs
}

// buildPrograms builds each program as its own main package of one
// module, all in one go build; the packages of yaegi's _test tree some
// programs import come from the pinned yaegi. A built program's reference
// has status ok and its binary's path as Detail; the others status build
// and the compiler's message.
func buildPrograms(t *testing.T, progs []program, yaegiVersion string) map[string]reference {
	dir := t.TempDir()
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	if i := strings.IndexFunc(goVersion, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); i >= 0 {
		goVersion = goVersion[:i]
	}
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module corpus\n\ngo "+goVersion+"\n\nrequire github.com/traefik/yaegi "+yaegiVersion+"\n")
	for _, p := range progs {
		write(filepath.Join("p", p.name, "main.go"), p.src)
	}
	bin := filepath.Join(dir, "bin") + string(filepath.Separator)
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "./p/...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	msgs, _ := cmd.CombinedOutput() // fails when any program does not build: the others are built
	failed := map[string]string{}
	cur := ""
	for _, l := range strings.Split(string(msgs), "\n") {
		if name, ok := strings.CutPrefix(l, "# corpus/p/"); ok {
			cur = name
			continue
		}
		if cur != "" {
			failed[cur] += l + "\n"
		}
	}
	out := map[string]reference{}
	for _, p := range progs {
		exe := filepath.Join(bin, p.name)
		if _, err := os.Stat(exe); err != nil {
			msg := failed[p.name]
			if msg == "" {
				msg = "not built: " + strings.TrimSpace(string(msgs))
			}
			out[p.name] = reference{Status: refBuild, Detail: strings.TrimSpace(msg)}
			continue
		}
		out[p.name] = reference{Status: refOK, Detail: exe}
	}
	return out
}

// runReference runs a built program twice in dir (stdin empty) and
// classifies it.
func runReference(exe, dir string) reference {
	var outs [2]string
	for i := range outs {
		ctx, cancel := context.WithTimeout(context.Background(), refTimeoutAfter)
		cmd := exec.CommandContext(ctx, exe)
		cmd.Dir = dir
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			return reference{Status: refTimeout, Output: buf.String(), Detail: fmt.Sprintf("still running after %v", refTimeoutAfter)}
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return reference{Status: refExit, Output: buf.String(), Detail: err.Error()}
		}
		if err != nil {
			return reference{Status: refExit, Output: buf.String(), Detail: err.Error()}
		}
		outs[i] = buf.String()
	}
	if outs[0] != outs[1] {
		return reference{Status: refUnstable, Output: outs[0], Detail: "second run printed:\n" + outs[1]}
	}
	return reference{Status: refOK, Output: outs[0]}
}
