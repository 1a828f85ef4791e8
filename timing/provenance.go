package timing

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tick-kernel/tick/internal/version"
)

// Provenance records what was measured and where. The caller fills Backend,
// Device, Inputs and, when it knows better than the probe, CacheState; the
// engine fills the rest.
type Provenance struct {
	Backend string `json:"backend,omitempty"`
	Device  string `json:"device,omitempty"`
	// Inputs are dtypes and shapes of the JIT inputs, e.g. "float32[256]".
	Inputs []string `json:"inputs,omitempty"`
	// CacheState describes the compile cache at the cold call, e.g.
	// "cold: 3 compiles" or "warm: 3 cache hits".
	CacheState string `json:"cache_state,omitempty"`
	// Env holds the environment knobs DEBUG, DEVICE, GOMAXPROCS, GOGC
	// (GOMAXPROCS is the effective value).
	Env       map[string]string `json:"env"`
	GoVersion string            `json:"go"`
	Tick      string            `json:"tick"`
	Commit    string            `json:"commit"`
	Yaegi     string            `json:"yaegi"`
	CPU       string            `json:"cpu"`
	CPUs      int               `json:"cpus"`
	Warmup    int               `json:"warmup"`
	Date      time.Time         `json:"date"`
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

func fillProvenance(p *Provenance, r *Result) {
	p.Env = make(map[string]string, len(EnvKnobs))
	for _, k := range EnvKnobs {
		p.Env[k] = os.Getenv(k)
	}
	p.Env["GOMAXPROCS"] = itoa(runtime.GOMAXPROCS(0))
	p.GoVersion = runtime.Version()
	p.Tick = version.Version
	p.Commit = version.Commit()
	p.Yaegi = version.Module("github.com/traefik/yaegi")
	p.CPU = cpuModel()
	p.CPUs = runtime.NumCPU()
	p.Warmup = r.Warmups
	p.Date = time.Now().UTC().Truncate(time.Second)
	if p.CacheState == "" && (r.Cold.Compiles > 0 || r.Cold.CacheHits > 0) {
		if r.Cold.Compiles > 0 {
			p.CacheState = "cold: " + itoa(int(r.Cold.Compiles)) + " compiles, " + itoa(int(r.Cold.CacheHits)) + " cache hits"
		} else {
			p.CacheState = "warm: " + itoa(int(r.Cold.CacheHits)) + " cache hits"
		}
	}
}
