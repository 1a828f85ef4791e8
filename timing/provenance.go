package timing

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/internal/version"
)

// Provenance records what was measured and where. The caller may fill
// Backend, Device and Inputs; with Target.Record the engine fills them
// from the runtime's facts (the device that actually ran the statement,
// every tensor it read), and it fills the rest.
type Provenance struct {
	// Backend and Device name what ran the statement: the device(s) work
	// was enqueued on and their backends; empty when no device work ran.
	Backend string `json:"backend,omitempty"`
	Device  string `json:"device,omitempty"`
	// Devices describes each device in full (compiler, version, flags).
	Devices []Device `json:"devices,omitempty"`
	// Inputs are dtypes and shapes of the tensors the statement read, e.g.
	// "[256] float32 on CPU" (JIT inputs, inputs of eager kernels, tensors
	// copied out), from the calls before sampling.
	Inputs []string `json:"inputs,omitempty"`
	// CacheState summarizes the compile cache at the cold call, e.g.
	// "cold: 1 compiled, 0 from disk, 0 memory hits"; Kernels has the
	// outcome of every lookup of the calls before sampling.
	CacheState string        `json:"cache_state,omitempty"`
	Kernels    []KernelCache `json:"kernels,omitempty"`
	// JITCalls are the JIT calls made before sampling (number, kind,
	// signature).
	JITCalls []JITCall `json:"jit_calls,omitempty"`
	// Debug is the runtime's effective DEBUG level, however it was set
	// (environment or SetDebug); Env keeps the environment's DEBUG.
	Debug int `json:"debug"`
	// Env holds the environment knobs DEBUG, DEVICE, GOMAXPROCS, GOGC
	// (GOMAXPROCS is the effective value).
	Env       map[string]string `json:"env"`
	GoVersion string            `json:"go"`
	Tick      string            `json:"tick"`
	// Commit is tick's commit and CommitSource where it came from:
	// "ldflags", "vcs" (the build's VCS stamp), "module" (the main
	// module's version) or "none" (Commit is "unidentified build").
	Commit       string `json:"commit"`
	CommitSource string `json:"commit_source"`
	Yaegi        string `json:"yaegi"`
	CPU          string `json:"cpu"`
	CPUs         int    `json:"cpus"`
	Warmup       int    `json:"warmup"`
	// Load is the machine's load average when sampling started and ended;
	// Sched how the process was scheduled while it ran.
	Load  Load      `json:"load"`
	Sched Sched     `json:"sched"`
	Date  time.Time `json:"date"`
}

// Load is /proc/loadavg's 1, 5 and 15 minute averages ("" where there is
// no /proc) at the start and end of sampling.
type Load struct {
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
}

// Sched compares the process's CPU time with the wall time while samples
// were taken, and, where Linux keeps schedstats, how long its threads
// waited on a run queue — ready to run, but another program had the CPU.
type Sched struct {
	Wall time.Duration `json:"wall_ns"`
	CPU  time.Duration `json:"cpu_ns"`
	// RunDelay is the threads' total run-queue wait; -1 when unknown.
	RunDelay time.Duration `json:"run_delay_ns"`
}

// Descheduled is the run-queue wait as a share of the wall time (0 when
// unknown).
func (s Sched) Descheduled() float64 {
	if s.RunDelay <= 0 || s.Wall <= 0 {
		return 0
	}
	return float64(s.RunDelay) / float64(s.Wall)
}

// WatchSched starts watching the process's scheduling; the function it
// returns reports the wall time, the process's CPU time and its threads'
// run-queue wait since the watch started. A loop timed by hand reads it
// around the loop to know whether it had the CPUs: a single sample of a
// few microseconds moves many times when another program (or another
// thread of the process) takes the CPU away for a slice. Reading it costs
// a read of /proc per thread: call it outside the timed region.
func WatchSched() (since func() Sched) {
	s0 := readSched()
	return func() Sched { return readSched().since(s0) }
}

// EnvKnobs are the environment variables recorded in Provenance.Env.
var EnvKnobs = []string{"DEBUG", "DEVICE", "GOMAXPROCS", "GOGC"}

// cpuModel is read once: /proc/cpuinfo does not change while we run.
var cpuModel = sync.OnceValue(func() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
})

// fillProvenance completes p from the result, the facts recorded before
// sampling and the process.
func fillProvenance(p *Provenance, r *Result, f Facts) {
	fillCommon(p, r.Debug, r.Warmups, r.Cold, f)
}

// fillCommon completes p from the runtime's DEBUG level, the warm-up calls,
// the cold (first) call, the facts and the process.
func fillCommon(p *Provenance, debugLevel, warmups int, cold Cold, f Facts) {
	p.Env = make(map[string]string, len(EnvKnobs))
	for _, k := range EnvKnobs {
		p.Env[k] = os.Getenv(k)
	}
	p.Env["GOMAXPROCS"] = itoa(runtime.GOMAXPROCS(0))
	p.Debug = debugLevel
	p.GoVersion = runtime.Version()
	p.Tick = version.Version
	p.Commit, p.CommitSource = version.Commit(), version.CommitSource()
	p.Yaegi = version.Module("github.com/traefik/yaegi")
	p.CPU = cpuModel()
	p.CPUs = runtime.NumCPU()
	p.Warmup = warmups
	p.Date = time.Now().UTC().Truncate(time.Second)
	p.fromFacts(f)
	if p.CacheState == "" {
		p.CacheState = cacheState(cold)
	}
}

// fromFacts sets the device, backend, inputs and cache outcomes from what
// the runtime recorded (when it recorded anything).
func (p *Provenance) fromFacts(f Facts) {
	if len(f.Devices) > 0 {
		p.Devices = f.Devices
		var names, backends []string
		for _, d := range f.Devices {
			names = append(names, d.Name)
			backends = append(backends, d.Describe())
		}
		p.Device, p.Backend = strings.Join(names, "+"), strings.Join(backends, "; ")
	}
	if len(f.Reads) > 0 {
		p.Inputs = f.Reads
	}
	p.Kernels, p.JITCalls = f.Kernels, f.JIT
}

// cacheState summarizes the cold call's compile-cache outcomes.
func cacheState(c Cold) string {
	if c.Compiles == 0 && c.DiskHits == 0 && c.CacheHits == 0 {
		if c.Kind == CallReplay {
			return "not consulted: a replay (its kernels were compiled and captured before)"
		}
		return ""
	}
	state := "warm"
	if c.Compiles > 0 {
		state = "cold"
	}
	return fmt.Sprintf("%s: %s, %d from disk, %s", state, plural(int(c.Compiles), "compiled", "compiled"),
		c.DiskHits, plural(int(c.CacheHits), "memory hit", "memory hits"))
}

// loadAverage reads the 1, 5 and 15 minute load averages, "" without
// /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// schedSnapshot is the process's CPU time and its threads' run-queue wait
// at one moment.
type schedSnapshot struct {
	wall     time.Time
	cpu      time.Duration
	runDelay time.Duration // -1 when unknown
}

func readSched() schedSnapshot {
	u, s := rusage()
	return schedSnapshot{wall: time.Now(), cpu: u + s, runDelay: runDelay()}
}

func (s schedSnapshot) since(s0 schedSnapshot) Sched {
	out := Sched{Wall: s.wall.Sub(s0.wall), CPU: s.cpu - s0.cpu, RunDelay: -1}
	if s.runDelay >= 0 && s0.runDelay >= 0 {
		out.RunDelay = max(s.runDelay-s0.runDelay, 0)
	}
	return out
}

// runDelay sums the run-queue wait of the process's threads from
// /proc/self/task/*/schedstat (its second field, in nanoseconds); -1
// where it is not available. Threads that exited meanwhile are missed.
func runDelay() time.Duration {
	paths, err := filepath.Glob("/proc/self/task/*/schedstat")
	if err != nil || len(paths) == 0 {
		return -1
	}
	var total time.Duration
	for _, p := range paths {
		d, unreadable, ok := schedstatDelay(p)
		if unreadable {
			continue // the thread exited
		}
		if !ok {
			return -1
		}
		total += d
	}
	return total
}

// ThreadRunDelay is how long the calling OS thread has waited on a run
// queue so far — ready to run while another thread or program had the
// CPU — from /proc/thread-self/schedstat; -1 where Linux does not keep
// schedstats. Lock the goroutine to its thread (runtime.LockOSThread)
// between two readings, or they are of different threads.
func ThreadRunDelay() time.Duration {
	d, _, ok := schedstatDelay("/proc/thread-self/schedstat")
	if !ok {
		return -1
	}
	return d
}

// ThreadCPU is the calling OS thread's CPU time so far (user and system,
// CLOCK_THREAD_CPUTIME_ID); -1 where it is not measured (not Linux). Like
// ThreadRunDelay, two readings are of one thread only if the goroutine is
// locked to it.
func ThreadCPU() time.Duration {
	if !haveThreadCPU {
		return -1
	}
	return threadCPU()
}

// schedstatDelay reads a schedstat file's second field, the run-queue
// wait in nanoseconds; unreadable when the file could not be read, not ok
// when it could not be read or parsed.
func schedstatDelay(path string) (d time.Duration, unreadable, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, true, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false, false
	}
	v, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false, false
	}
	return time.Duration(v), false, true
}

// Line renders the provenance compactly on one line.
func (p Provenance) Line() string {
	var parts []string
	if p.Device != "" {
		parts = append(parts, "device "+p.Device)
	}
	if p.Backend != "" {
		parts = append(parts, "backend "+p.Backend)
	}
	if len(p.Inputs) > 0 {
		parts = append(parts, "reads "+strings.Join(p.Inputs, ", "))
	}
	if p.CacheState != "" {
		parts = append(parts, "cache "+p.CacheState)
	}
	parts = append(parts, fmt.Sprintf("DEBUG=%d", p.Debug))
	var env []string
	for _, k := range EnvKnobs {
		if v := p.Env[k]; v != "" && k != "DEBUG" {
			env = append(env, k+"="+v)
		}
	}
	if v := p.Env["DEBUG"]; v != "" && v != itoa(p.Debug) {
		env = append(env, "$DEBUG="+v)
	}
	if len(env) > 0 {
		parts = append(parts, strings.Join(env, " "))
	}
	parts = append(parts, p.GoVersion, "tick "+p.Tick+" ("+p.Commit+")", "yaegi "+p.Yaegi, fmt.Sprintf("%s ×%d", p.CPU, p.CPUs))
	if p.Warmup > 0 {
		parts = append(parts, fmt.Sprintf("warm-up %d", p.Warmup))
	}
	if p.Load.Start != "" {
		parts = append(parts, "load "+p.Load.Start+" → "+p.Load.End)
	}
	if p.Sched.Wall > 0 {
		s := fmt.Sprintf("CPU %.0f%% of wall", 100*float64(p.Sched.CPU)/float64(p.Sched.Wall))
		if p.Sched.RunDelay >= 0 {
			s += fmt.Sprintf(", threads waited for a CPU %.0f%% of it", 100*p.Sched.Descheduled())
		}
		parts = append(parts, s)
	}
	if !p.Date.IsZero() {
		parts = append(parts, p.Date.Format(time.DateOnly))
	}
	return strings.Join(parts, " · ")
}
