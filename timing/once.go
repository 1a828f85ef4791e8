package timing

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Once is the result of TimeOnce (%time): one synchronized run.
type Once struct {
	Wall time.Duration `json:"wall_ns"`
	// User and Sys are the process's CPU time during the run (all threads).
	User time.Duration `json:"user_ns"`
	Sys  time.Duration `json:"sys_ns"`
	// Phases is the runtime's time per phase during the run, in report
	// order (RuntimePhases first); empty without a probe.
	Phases []PhaseTime `json:"phases,omitempty"`
	// Counters is the probe's difference over the run.
	Counters Probe `json:"counters"`
}

// PhaseTime is the time spent in one runtime phase.
type PhaseTime struct {
	Name string        `json:"name"`
	Time time.Duration `json:"time_ns"`
}

// TimeOnce runs t once: sync; t0; call; sync; t1. It reports wall time, CPU
// user and system time (getrusage) and the probe's phase breakdown.
func TimeOnce(t Target, c Clock) (*Once, error) {
	if t.Call == nil {
		return nil, ErrNoCall
	}
	if c == nil {
		c = WallClock()
	}
	r := &runner{t: t, c: c}
	if err := r.sync(&t); err != nil {
		return nil, err
	}
	p0 := r.probe()
	u0, s0 := rusage()
	t0 := c.Now()
	if err := t.Call(1); err != nil {
		return nil, fmt.Errorf("timing: %w", err)
	}
	if err := r.sync(&t); err != nil {
		return nil, err
	}
	t1 := c.Now()
	u1, s1 := rusage()
	d := r.probe().sub(p0)
	o := &Once{Wall: t1 - t0, User: u1 - u0, Sys: s1 - s0, Counters: d}
	for _, k := range RuntimePhases {
		if v, ok := d.Phases[k]; ok {
			o.Phases = append(o.Phases, PhaseTime{k, v})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(d.Phases)) {
		if !slices.Contains(RuntimePhases, k) {
			o.Phases = append(o.Phases, PhaseTime{k, d.Phases[k]})
		}
	}
	return o, nil
}

func rusage() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// Text renders the run like IPython's %time, followed by the phase table:
//
//	CPU times: user 1.20 ms, sys 0 ns, total 1.20 ms
//	Wall time: 1.31 ms
func (o *Once) Text(digits int) string {
	f := func(d time.Duration) string { return FormatDuration(float64(d), digits) }
	var b strings.Builder
	fmt.Fprintf(&b, "CPU times: user %s, sys %s, total %s\nWall time: %s\n", f(o.User), f(o.Sys), f(o.User+o.Sys), f(o.Wall))
	if len(o.Phases) == 0 {
		return b.String()
	}
	w := len("other")
	var sum time.Duration
	for _, p := range o.Phases {
		w = max(w, len(p.Name))
		sum += p.Time
	}
	fmt.Fprintf(&b, "%-*s  %10s  %6s\n", w, "phase", "time", "wall")
	row := func(name string, d time.Duration) {
		pct := 0.0
		if o.Wall > 0 {
			pct = 100 * float64(d) / float64(o.Wall)
		}
		fmt.Fprintf(&b, "%-*s  %10s  %5.1f%%\n", w, name, f(d), pct)
	}
	for _, p := range o.Phases {
		row(p.Name, p.Time)
	}
	if other := o.Wall - sum; other > 0 {
		row("other", other)
	}
	return b.String()
}
