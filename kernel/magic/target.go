package magic

import (
	"errors"
	"fmt"
	goscanner "go/scanner"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// Host is what the magics need from a notebook session. *session.Session
// implements it; tests may use a fake.
type Host interface {
	// CompileLoop compiles, once, an interpreted func(n int) that runs
	// setup and then stmt n times.
	CompileLoop(setup, stmt string) (func(n int) error, error)
	// Eval evaluates a Go expression in the session's scope.
	Eval(expr string) (reflect.Value, error)
	// SetVar binds a Go value to a session variable.
	SetVar(name string, v any) error
}

// compileTarget compiles stmt (after setup) once into a timing target with
// the tensor runtime's synchronize and counters, and check (a boolean Go
// expression, may be empty) as its correctness check.
func compileTarget(h Host, setup, stmt, check string) (timing.Target, error) {
	call, err := h.CompileLoop(setup, stmt)
	if err != nil {
		// A session error already names its kind and position; say which
		// step failed without repeating "CompileError:".
		var se *session.Error
		if errors.As(err, &se) {
			return timing.Target{}, fmt.Errorf("compiling the statement: %s", se.Value)
		}
		return timing.Target{}, fmt.Errorf("compiling the statement: %w", err)
	}
	t := timing.Target{Call: call, Sync: tensor.SynchronizeAll, Probe: probe}
	if check != "" {
		t.Check = func() (bool, error) { return evalBool(h, check) }
	}
	return t, nil
}

// floorTarget is the empty statement compiled the same way as the timed
// one (with the same setup, so setup cost is part of the floor).
func floorTarget(h Host, setup string) (*timing.Target, error) {
	call, err := h.CompileLoop(setup, "")
	if err != nil {
		return nil, fmt.Errorf("compiling the empty statement for the floor: %w", err)
	}
	return &timing.Target{Call: call, Sync: tensor.SynchronizeAll, Probe: probe}, nil
}

// evalBool evaluates a --check expression; anything but a bool is an error
// that says so.
func evalBool(h Host, expr string) (bool, error) {
	v, err := h.Eval(expr)
	if err != nil {
		return false, fmt.Errorf("--check %s: %w", expr, err)
	}
	if !v.IsValid() || v.Kind() != reflect.Bool {
		t := "no value"
		if v.IsValid() {
			t = v.Type().String()
		}
		return false, fmt.Errorf("--check %s: is a %s, not a bool: write a comparison such as 'y.Item() == 3'", expr, t)
	}
	return v.Bool(), nil
}

// probe maps the tensor runtime's counters onto timing.Probe. Devices run
// their queues on worker goroutines, so work is asynchronous: Realize
// returns before kernels finish.
func probe() timing.Probe {
	s := tensor.Counters()
	return timing.Probe{
		Kernels:     s.KernelsLaunched,
		Compiles:    s.KernelsCompiled,
		CacheHits:   s.CacheHits,
		JITCaptures: s.JITCaptures,
		JITReplays:  s.JITReplays,
		FLOPs:       float64(s.EstFLOPs),
		Bytes:       float64(s.EstBytes),
		Phases: map[string]time.Duration{
			timing.PhaseGraph:    s.GraphBuild,
			timing.PhaseSchedule: s.Schedule,
			timing.PhaseCodegen:  s.Codegen,
			timing.PhaseCompile:  s.Compile,
			timing.PhaseAlloc:    s.Alloc,
			timing.PhaseTransfer: s.Transfer,
			timing.PhaseLaunch:   s.Launch,
			timing.PhaseDevice:   s.DeviceExec,
			timing.PhaseWait:     s.SyncWait,
		},
		Async: true,
		Debug: tensor.DebugLevel(),
	}
}

// provenance is what the magic knows about where the statement runs: the
// default device and its backend. The engine adds environment, versions,
// CPU and date; jitInputs adds the JIT inputs after the measurement.
func provenance() timing.Provenance {
	dev := tensor.DefaultDevice()
	return timing.Provenance{Backend: backendOf(dev), Device: dev}
}

// backendOf describes the backend behind device name, e.g. "C (/usr/bin/cc
// -O3 -march=native)" for CPU, rather than repeating the device's name. It
// asks the device (Dev.Backend) and, when that says no more than the name,
// knows the runtime's built-in backends.
func backendOf(name string) string {
	if dev, err := tensor.LookupDevice(name); err == nil {
		s := dev.Backend()
		// "CPU (C via cc -O3)": the device's name is in Provenance.Device.
		if in, ok := strings.CutPrefix(s, dev.Name()+" ("); ok && strings.HasSuffix(in, ")") {
			s = strings.TrimSuffix(in, ")")
		}
		if s != "" && !strings.EqualFold(s, dev.Name()) {
			return s
		}
	}
	base, _, _ := strings.Cut(strings.ToUpper(name), ":")
	switch base {
	case "CPU":
		return "C (" + cpuCompiler(tensor.CPUStatus()) + ")"
	case "GO":
		return "pure Go closures"
	case "NULL":
		return "none (kernels are not run)"
	}
	return base
}

// cpuCompiler extracts the compiler and its optimisation flags from
// tensor.CPUStatus ("CPU device: /usr/bin/cc [-O3 -march=native ...];
// kernel cache ..."), e.g. "cc -O3 -march=native"; flags that do not
// change the code's speed are left out.
func cpuCompiler(status string) string {
	s, ok := strings.CutPrefix(status, "CPU device: ")
	if !ok {
		return "C compiler unavailable"
	}
	s, _, _ = strings.Cut(s, ";")
	path, flags, _ := strings.Cut(s, " ")
	parts := []string{filepath.Base(path)}
	for _, f := range strings.Fields(strings.Trim(strings.TrimSpace(flags), "[]")) {
		if strings.HasPrefix(f, "-O") || strings.HasPrefix(f, "-march") || strings.HasPrefix(f, "-mtune") || strings.HasPrefix(f, "-ffast") {
			parts = append(parts, f)
		}
	}
	return strings.Join(parts, " ")
}

// jitInputs returns the input signatures ("[256] float32 on GO") of the
// tensor JITs the statement names: every identifier in stmt that is a
// session variable holding a *tensor.JITFunc. The runtime keeps no
// process-wide record of JIT inputs, so the statement is where to look.
func jitInputs(h Host, stmt string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range identifiers(stmt) {
		if seen[id] {
			continue
		}
		seen[id] = true
		v, err := h.Eval(id)
		if err != nil || !v.IsValid() || !v.CanInterface() {
			continue
		}
		if j, ok := v.Interface().(*tensor.JITFunc); ok && j != nil {
			out = append(out, j.State().Inputs...)
		}
	}
	return out
}

// identifiers lists the identifiers of Go source text in order, skipping
// those after a '.' (fields and package members).
func identifiers(src string) []string {
	var s goscanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), []byte(src), nil, 0)
	var out []string
	prev := token.ILLEGAL
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && prev != token.PERIOD {
			out = append(out, lit)
		}
		prev = tok
	}
}
