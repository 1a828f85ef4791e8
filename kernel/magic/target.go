package magic

import (
	"errors"
	"fmt"
	goscanner "go/scanner"
	"go/token"
	"slices"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
	"github.com/tick-kernel/tick/runtime/tensor"
	"github.com/tick-kernel/tick/timing"
)

// timedStmt is a statement compiled for timing in one call to the engine
// (Evaluator.CompileTimed): its target, the target of the empty statement
// after the same setup (the floor), and the functions it calls that run
// interpreted.
type timedStmt struct {
	timing.Target
	Floor       *timing.Target
	Interpreted []string
}

// compileTarget compiles stmt (after setup) once into a timing target with
// the tensor runtime's synchronize, counters and facts, and check (a
// boolean Go expression, may be empty) as its correctness check.
func compileTarget(h Evaluator, setup, stmt, check string) (timedStmt, error) {
	c, err := h.CompileTimed(setup, stmt)
	if err != nil {
		// A session error already names its kind and position; say which
		// step failed without repeating "CompileError:".
		var se *session.Error
		if errors.As(err, &se) {
			return timedStmt{}, fmt.Errorf("compiling the statement: %s", se.Value)
		}
		return timedStmt{}, fmt.Errorf("compiling the statement: %w", err)
	}
	t := timing.Target{Call: c.Loop, Sync: tensor.SynchronizeAll, Probe: probe, Record: recordFacts, Label: label(stmt)}
	if check != "" {
		t.Check = func() (bool, string, error) { return evalCheck(h, check) }
	}
	floor := &timing.Target{Call: c.Floor, Sync: tensor.SynchronizeAll, Probe: probe}
	return timedStmt{Target: t, Floor: floor, Interpreted: c.Interpreted}, nil
}

// probe maps the tensor runtime's counters onto timing.Probe. Devices run
// their queues on worker goroutines, so work is asynchronous: Realize
// returns before kernels finish.
func probe() timing.Probe {
	s := tensor.Counters()
	return timing.Probe{
		Kernels:     s.KernelsLaunched,
		Compiles:    s.KernelsCompiled,
		DiskHits:    s.KernelsFromDisk,
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
		DeviceTime:       s.DeviceClock,
		DeviceKernels:    s.KernelsClocked,
		Transfers:        s.Transfers,
		TransferBytes:    s.TransferBytes,
		TransferHost:     s.TransferHost,
		TransferDevice:   s.TransferDevice,
		TransfersClocked: s.TransfersClocked,
		Async:            true,
		Debug:            tensor.DebugLevel(),
	}
}

// recordFacts adapts the runtime's facts (tensor.RecordFacts) to the
// engine's: the JIT calls and their kinds, the compile-cache outcome of
// each kernel, each device that ran work described as a value, and the
// tensors read. Nothing is parsed from text.
func recordFacts() func() timing.Facts {
	stop := tensor.RecordFacts()
	return func() timing.Facts {
		f := stop()
		var out timing.Facts
		for _, c := range f.JITCalls {
			out.JIT = append(out.JIT, timing.JITCall{Call: c.Call, Kind: jitCallKind(c.Phase), Inputs: c.Inputs})
		}
		for _, k := range f.Kernels {
			out.Kernels = append(out.Kernels, timing.KernelCache{Name: k.Name, Device: k.Device, Cache: string(k.Cache)})
		}
		for _, name := range f.Devices {
			out.Devices = append(out.Devices, deviceOf(name))
		}
		for _, r := range f.Reads {
			out.Reads = append(out.Reads, r.String())
		}
		for _, k := range f.DeviceTimes {
			out.DeviceTimes = append(out.DeviceTimes, timing.KernelTime{Name: k.Name, Device: k.Device, Launches: k.Launches, Time: k.Time})
		}
		for _, t := range f.Transfers {
			out.Transfers = append(out.Transfers, timing.Transfer{From: t.From, To: t.To, Count: t.Count, Bytes: t.Bytes, Host: t.Host, Device: t.Device})
			for _, name := range []string{t.From, t.To} { // a device that only received or gave data ran work too
				if name != "host" && !slices.Contains(f.Devices, name) {
					f.Devices = append(f.Devices, name)
					out.Devices = append(out.Devices, deviceOf(name))
				}
			}
		}
		return out
	}
}

// jitCallKind maps a JIT call's phase to the engine's kind: the JIT's
// first call runs its function, an ordinary call.
func jitCallKind(phase string) timing.CallKind {
	switch phase {
	case "capture":
		return timing.CallCapture
	case "replay":
		return timing.CallReplay
	}
	return timing.CallOrdinary
}

// deviceOf describes the named device for provenance.
func deviceOf(name string) timing.Device {
	i, err := tensor.DescribeDevice(name)
	if err != nil {
		return timing.Device{Name: name, Backend: "unknown (" + err.Error() + ")", Computes: true}
	}
	_, _, clock := tensor.ClockOffset(name)
	return timing.Device{Name: i.Name, Backend: i.Backend, Compiler: i.Compiler, CompilerVersion: i.CompilerVersion,
		Flags: i.Flags, Computes: i.Computes, Clock: clock}
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
