// Package memlimit finds how much memory a tick kernel may use: the
// smallest of every limit that applies to the process — cgroup v2
// (memory.max and memory.high of its cgroup and of every ancestor), cgroup
// v1 (memory.limit_in_bytes up the hierarchy), RLIMIT_AS and RLIMIT_DATA,
// and the machine's memory — unless TICK_MEMORY_LIMIT names one.
//
// The engine sets Go's soft memory limit from it (the garbage collector
// works harder near it, and `make` past it is an error in the cell); the
// supervisor ends an engine that goes past it and says so in the cell
// (docs/security.md). Discovery reads files under a root directory, so it
// is tested on fixture trees of /proc and /sys.
package memlimit

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Env overrides the ceiling: a size ("8GiB", "512M", a byte count) or
// "off" for none.
const Env = "TICK_MEMORY_LIMIT"

// GoShare is the part of a discovered ceiling the engine gives Go's
// garbage collector as its soft limit (debug.SetMemoryLimit): the rest is
// room for memory Go does not count (C buffers, the interpreter's own) and
// for the supervisor.
const GoShare = 0.8

// Limit is one limit that applies, and where it was read.
type Limit struct {
	Bytes  int64
	Source string // "cgroup v1 memory.limit_in_bytes of /sys/fs/cgroup/memory/x", "RLIMIT_AS", ...
}

// Ceiling is the memory the kernel may use: the smallest Limit found.
type Ceiling struct {
	Limit
	// Explicit: the ceiling is TICK_MEMORY_LIMIT's, not discovered.
	Explicit bool
	// Off: TICK_MEMORY_LIMIT=off, no ceiling.
	Off bool
	// All is every limit found, smallest first is not guaranteed.
	All []Limit
}

// GoLimit is the soft limit for Go's garbage collector: the explicit
// ceiling itself, or GoShare of a discovered one; 0 when there is none.
func (c Ceiling) GoLimit() int64 {
	switch {
	case c.Off || c.Bytes <= 0:
		return 0
	case c.Explicit:
		return c.Bytes
	}
	return int64(float64(c.Bytes) * GoShare)
}

// String describes the ceiling for `tick version` and the kernel log.
func (c Ceiling) String() string {
	switch {
	case c.Off:
		return "none (" + Env + "=off)"
	case c.Bytes <= 0:
		return "unknown (no limit found; set " + Env + ")"
	}
	s := Human(c.Bytes) + " (" + c.Source + ")"
	if g := c.GoLimit(); g != c.Bytes {
		s += fmt.Sprintf("; Go's memory limit in the engine %s (%.0f%%)", Human(g), GoShare*100)
	}
	return s
}

// System is where discovery reads: files under Root ("/" for the real
// system, a fixture directory in tests) and the resource limits.
type System struct {
	Root string
	// Rlimit returns the soft limit of RLIMIT_AS ("AS") or RLIMIT_DATA
	// ("DATA"); ok is false when unlimited or unknown.
	Rlimit func(name string) (n uint64, ok bool)
	// Getenv reads TICK_MEMORY_LIMIT.
	Getenv func(string) string
}

// Host is the running system.
func Host() System { return System{Root: "/", Rlimit: rlimit, Getenv: os.Getenv} }

// Discover returns the ceiling on the running system.
func Discover() (Ceiling, error) { return Host().Discover() }

// Discover returns the ceiling: TICK_MEMORY_LIMIT when set, else the
// smallest limit found (Bytes 0 when none is).
func (s System) Discover() (Ceiling, error) {
	if s.Getenv != nil {
		switch v := strings.TrimSpace(s.Getenv(Env)); strings.ToLower(v) {
		case "":
		case "off", "none", "0":
			return Ceiling{Off: true, Limit: Limit{Source: Env + "=" + v}}, nil
		default:
			n, err := ParseSize(v)
			if err != nil {
				return Ceiling{}, fmt.Errorf("memlimit: %s: %w", Env, err)
			}
			l := Limit{Bytes: n, Source: Env + "=" + v}
			return Ceiling{Limit: l, Explicit: true, All: []Limit{l}}, nil
		}
	}
	var all []Limit
	all = append(all, s.cgroup2()...)
	all = append(all, s.cgroup1()...)
	if s.Rlimit != nil {
		for _, name := range []string{"AS", "DATA"} {
			if n, ok := s.Rlimit(name); ok && n < math.MaxInt64 {
				all = append(all, Limit{Bytes: int64(n), Source: "RLIMIT_" + name + " (ulimit)"})
			}
		}
	}
	if n := s.memTotal(); n > 0 {
		all = append(all, Limit{Bytes: n, Source: "the machine's memory (MemTotal)"})
	}
	c := Ceiling{All: all}
	for _, l := range all {
		if c.Bytes == 0 || l.Bytes < c.Bytes {
			c.Limit = l
		}
	}
	return c, nil
}

func (s System) path(p string) string { return filepath.Join(s.Root, filepath.FromSlash(p)) }

func (s System) read(p string) (string, bool) {
	b, err := os.ReadFile(s.path(p))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func (s System) memTotal() int64 {
	text, ok := s.read("/proc/meminfo")
	if !ok {
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// mount is one cgroup mount of /proc/self/mountinfo.
type mount struct {
	root, point string // the hierarchy's directory mounted, and where
	fstype      string
	options     []string // super options: the v1 controllers
}

func (s System) mounts() []mount {
	text, ok := s.read("/proc/self/mountinfo")
	if !ok {
		return nil
	}
	var out []mount
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		// 36 25 0:31 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 || (g[0] != "cgroup" && g[0] != "cgroup2") {
			continue
		}
		out = append(out, mount{root: unescape(f[3]), point: unescape(f[4]), fstype: g[0], options: strings.Split(g[2], ",")})
	}
	return out
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroups returns the process's cgroup paths from /proc/self/cgroup: the
// v2 path under "" and each v1 controller's under its name.
func (s System) cgroups() map[string]string {
	text, ok := s.read("/proc/self/cgroup")
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// Dir returns the directory of the process's cgroup in the hierarchy of
// controller ("" for cgroup v2, "memory", "pids" for v1) and that
// hierarchy's mount point, or ok false.
func (s System) Dir(controller string) (dir, mountPoint string, ok bool) {
	p, ok := s.cgroups()[controller]
	if !ok {
		return "", "", false
	}
	for _, m := range s.mounts() {
		if controller == "" && m.fstype != "cgroup2" || controller != "" && (m.fstype != "cgroup" || !contains(m.options, controller)) {
			continue
		}
		rel := p
		if m.root != "/" {
			r, ok := strings.CutPrefix(p, m.root)
			if !ok || (r != "" && r[0] != '/') {
				rel = "/" // the process's cgroup is outside the mount: use its root
			} else {
				rel = r
			}
		}
		return path.Join(m.point, rel), m.point, true
	}
	return "", "", false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ancestors returns dir and its parents up to (and including) top.
func ancestors(dir, top string) []string {
	out := []string{dir}
	for dir != top && dir != "/" && dir != "." && strings.HasPrefix(dir, top) {
		dir = path.Dir(dir)
		out = append(out, dir)
	}
	return out
}

// cgroup2 returns memory.max and memory.high of the process's v2 cgroup
// and its ancestors.
func (s System) cgroup2() []Limit {
	dir, top, ok := s.Dir("")
	if !ok {
		return nil
	}
	var out []Limit
	for _, d := range ancestors(dir, top) {
		for _, f := range []string{"memory.max", "memory.high"} {
			if n, ok := s.limitFile(path.Join(d, f)); ok {
				out = append(out, Limit{Bytes: n, Source: "cgroup v2 " + f + " of " + d})
			}
		}
	}
	return out
}

// cgroup1 returns memory.limit_in_bytes of the process's v1 memory cgroup
// and its ancestors.
func (s System) cgroup1() []Limit {
	dir, top, ok := s.Dir("memory")
	if !ok {
		return nil
	}
	var out []Limit
	for _, d := range ancestors(dir, top) {
		if n, ok := s.limitFile(path.Join(d, "memory.limit_in_bytes")); ok {
			out = append(out, Limit{Bytes: n, Source: "cgroup v1 memory.limit_in_bytes of " + d})
		}
	}
	return out
}

// unlimitedV1 is where cgroup v1 values mean "no limit" (the kernel
// reports LONG_MAX rounded down to a page).
const unlimitedV1 = int64(1) << 62

// limitFile reads a limit: a byte count, "max" for none.
func (s System) limitFile(p string) (int64, bool) {
	text, ok := s.read(p)
	if !ok || text == "max" {
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 || n >= unlimitedV1 {
		return 0, false
	}
	return n, true
}

// ParseSize parses a byte count: a number with an optional suffix K, M,
// G, T (powers of 1024, with or without "iB"/"B").
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	shift := 0
	switch {
	case strings.HasSuffix(t, "K"):
		shift = 10
	case strings.HasSuffix(t, "M"):
		shift = 20
	case strings.HasSuffix(t, "G"):
		shift = 30
	case strings.HasSuffix(t, "T"):
		shift = 40
	}
	if shift > 0 {
		t = t[:len(t)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size in bytes (write 1073741824, 1G or 512MiB)", s)
	}
	return n << shift, nil
}

// Human formats a byte count with a binary unit: "1.5 GiB".
func Human(n int64) string {
	b := float64(n)
	for _, u := range []string{"B", "KiB", "MiB", "GiB"} {
		if b < 1024 {
			return strconv.FormatFloat(b, 'f', decimals(b), 64) + " " + u
		}
		b /= 1024
	}
	return strconv.FormatFloat(b, 'f', decimals(b), 64) + " TiB"
}

func decimals(b float64) int {
	switch {
	case b >= 100 || b == math.Trunc(b):
		return 0
	case b >= 10:
		return 1
	}
	return 2
}

// OOMKills counts the processes out-of-memory killers have ended, as far
// as the system tells: the oom_kill counters of the process's memory
// cgroups (v2 memory.events, v1 memory.oom_control) and of the machine
// (/proc/vmstat). Only a change of it means something: an increase while
// an engine died of SIGKILL says an OOM killer ended it.
func (s System) OOMKills() int64 {
	var n int64
	count := func(p, key string) {
		text, ok := s.read(p)
		if !ok {
			return
		}
		for _, line := range strings.Split(text, "\n") {
			if v, ok := strings.CutPrefix(line, key+" "); ok {
				if k, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
					n += k
				}
			}
		}
	}
	if dir, _, ok := s.Dir(""); ok {
		count(path.Join(dir, "memory.events"), "oom_kill")
	}
	if dir, _, ok := s.Dir("memory"); ok {
		count(path.Join(dir, "memory.oom_control"), "oom_kill")
	}
	count("/proc/vmstat", "oom_kill")
	return n
}
