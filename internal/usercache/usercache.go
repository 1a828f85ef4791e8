// Package usercache keeps the files that libraries write while the
// program starts in the user's own, checked cache directory, not in a
// shared /tmp, and never lets them read an entry that is not one they
// wrote.
//
// go-graphviz (linked for %viz) compiles its WebAssembly module when its
// package initializes and caches the result in os.TempDir()/go-graphviz
// (wazero's compilation cache), with no check of who made the files: an
// entry another user planted there made every tick command panic at
// start-up, and a damaged entry did too, for good. This package is
// initialized before go-graphviz (it imports only the standard library and
// internal/privdir, so Go's initialization order, by import path among the
// packages whose imports are ready, reaches it while go-graphviz still
// waits for wazero's). Its init
//
//   - points TMPDIR at privdir.Root(), after checking the cache directory
//     (privdir.Cache("go-graphviz"): the user's, mode 0700, nobody else can
//     write it or the directories above it); when it is refused, at a
//     fresh private directory instead (Problem says why);
//   - removes from it every entry that is not in the list of entries a
//     successful start left (go-graphviz.sums beside it: size and CRC-32C
//     of each file), so a damaged or unknown entry is compiled again.
//
// Restore, called first thing in main, gives the program (and the cells it
// runs) back the TMPDIR it started with and records the entries that
// go-graphviz's initialization just used.
package usercache

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tick-kernel/tick/internal/privdir"
)

// sub is go-graphviz's directory under TMPDIR.
const sub = "go-graphviz"

// state is set once by init and read by Restore and Problem.
var state struct {
	saved        string // the start-up TMPDIR
	set, ok      bool   // it was set; TMPDIR was changed
	dir          string // the go-graphviz cache, "" when refused
	problem      error  // why the cache was refused
	private      string // the private fallback, removed by Restore's caller
	removedCount int    // entries removed before go-graphviz read them
}

// Dir is the directory start-up caches go to (privdir.Root).
func Dir() string { return privdir.Root() }

func init() {
	root := privdir.Root()
	tmp := root
	dir, err := privdir.Cache(sub)
	if err != nil {
		state.problem = err
		private, perr := privdir.Private("tick-graphviz-")
		if perr != nil {
			return // the library falls back to the shared temp dir as before
		}
		state.private, tmp = private, private
	} else {
		state.dir = dir
		state.removedCount = verify(dir, root+string(filepath.Separator)+sub+".sums")
	}
	state.saved, state.set = os.LookupEnv("TMPDIR")
	state.ok = os.Setenv("TMPDIR", tmp) == nil
}

// Restore sets TMPDIR back to its value at start-up (or unsets it) and
// records the cache's entries as the ones to trust next time.
func Restore() {
	if state.dir != "" {
		seal(state.dir, filepath.Join(filepath.Dir(state.dir), sub+".sums"))
	}
	if !state.ok {
		return
	}
	if state.set {
		os.Setenv("TMPDIR", state.saved)
	} else {
		os.Unsetenv("TMPDIR")
	}
}

// Problem says why the cache directory was refused (nil when it was
// used); the private directory used instead is removed by RemovePrivate.
func Problem() error { return state.problem }

// RemovePrivate removes the private directory used when the cache was
// refused.
func RemovePrivate() {
	if state.private != "" {
		os.RemoveAll(state.private)
	}
}

// sum is one trusted entry.
type sum struct {
	size int64
	crc  uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// staleTemp is how old a temporary file of the cache must be before it is
// taken for one a crashed process left: younger ones may be a concurrent
// start's, being written.
const staleTemp = time.Minute

// verify removes every entry of dir that the sums file does not list with
// its size and checksum; it returns how many it removed.
func verify(dir, sumsPath string) int {
	trusted := readSums(sumsPath)
	removed := 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() && !strings.ContainsRune(rel, filepath.Separator) {
			return nil // wazero's directory for its version: entries are files in it
		}
		if strings.HasSuffix(path, ".tmp") {
			if fi, err := d.Info(); err == nil && time.Since(fi.ModTime()) < staleTemp {
				return nil
			}
		} else if want, ok := trusted[rel]; ok && d.Type().IsRegular() {
			if got, err := fileSum(path); err == nil && got == want {
				return nil
			}
		}
		if os.RemoveAll(path) == nil {
			removed++
		}
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	return removed
}

// seal writes the sums of dir's regular files (temporary ones aside).
func seal(dir, sumsPath string) {
	var b strings.Builder
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasSuffix(path, ".tmp") {
			return nil
		}
		s, err := fileSum(path)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(&b, "%08x %d %s\n", s.crc, s.size, filepath.ToSlash(rel))
		return nil
	})
	if old, err := os.ReadFile(sumsPath); err == nil && string(old) == b.String() {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(sumsPath), filepath.Base(sumsPath)+".*.tmp")
	if err != nil {
		return
	}
	_, werr := f.WriteString(b.String())
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), sumsPath) != nil {
		os.Remove(f.Name())
	}
}

func readSums(path string) map[string]sum {
	out := map[string]sum{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 3)
		if len(parts) != 3 {
			continue
		}
		crc, err1 := strconv.ParseUint(parts[0], 16, 32)
		size, err2 := strconv.ParseInt(parts[1], 10, 64)
		if err1 == nil && err2 == nil {
			out[filepath.FromSlash(parts[2])] = sum{size: size, crc: uint32(crc)}
		}
	}
	return out
}

func fileSum(path string) (sum, error) {
	f, err := os.Open(path)
	if err != nil {
		return sum{}, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, f)
	return sum{size: n, crc: h.Sum32()}, err
}
