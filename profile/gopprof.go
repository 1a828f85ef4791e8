package profile

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	gpprof "github.com/google/pprof/profile"
)

// Go profiles of the kernel process while a statement runs: a CPU profile
// (runtime/pprof, 100 samples a second) and the allocations made in the
// same run (the difference of two allocation profiles). Parsed with
// github.com/google/pprof/profile; stacks are summarized so that a
// notebook's code stands out: the yaegi interpreter's frames collapse into
// one InterpretedFrame, and each stack gets a root saying whose it is (the
// statement, a device worker, or the rest of the process).

// Stack roots and the frame interpreter frames collapse into.
const (
	RootStatement    = "statement (host, interpreted cell code and what it calls)"
	RootDevice       = "device workers (kernels)"
	RootOther        = "rest of the process (kernel I/O, GC, runtime)"
	InterpretedFrame = "[interpreted Go: the cell's code, run by yaegi]"
	labelKey         = "tick"
	labelStatement   = "statement"
)

// GoProfile is a CPU and an allocation profile of one run of a statement.
type GoProfile struct {
	CPU, Alloc *gpprof.Profile // as recorded (not summarized): what `go tool pprof` reads
	Elapsed    time.Duration   // how long the statement ran
	Runs       int             // how many times it ran
	MemRate    int             // runtime.MemProfileRate while recording
}

// allocRate samples an allocation about every 16 KiB while recording
// (Go's default, 512 KiB, misses most of a short statement's allocations).
const allocRate = 16 << 10

// TakeGoProfile runs run repeatedly, at least once and until minTime has
// passed, under a CPU profile and between two allocation profiles. The
// calls run with the pprof label tick=statement, so their samples (and
// those of goroutines they start) are told from the rest of the process.
func TakeGoProfile(ctx context.Context, minTime time.Duration, run func() error) (*GoProfile, error) {
	prevRate := runtime.MemProfileRate
	runtime.MemProfileRate = allocRate
	defer func() { runtime.MemProfileRate = prevRate }()
	before, err := allocProfile()
	if err != nil {
		return nil, err
	}
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		return nil, fmt.Errorf("profile: starting the CPU profile (is another one running?): %w", err)
	}
	g := &GoProfile{MemRate: allocRate}
	var runErr error
	t0 := time.Now()
	pprof.Do(ctx, pprof.Labels(labelKey, labelStatement), func(ctx context.Context) {
		for g.Runs == 0 || time.Since(t0) < minTime {
			if runErr = ctx.Err(); runErr != nil {
				return
			}
			g.Runs++
			if runErr = run(); runErr != nil {
				return
			}
		}
	})
	g.Elapsed = time.Since(t0)
	pprof.StopCPUProfile()
	if runErr != nil {
		return nil, runErr
	}
	if g.CPU, err = gpprof.Parse(&cpu); err != nil {
		return nil, fmt.Errorf("profile: parsing the CPU profile: %w", err)
	}
	after, err := allocProfile()
	if err != nil {
		return nil, err
	}
	before.Scale(-1)
	if g.Alloc, err = gpprof.Merge([]*gpprof.Profile{after, before}); err != nil {
		return nil, fmt.Errorf("profile: subtracting the allocation profiles: %w", err)
	}
	g.Alloc = dropZero(g.Alloc)
	return g, nil
}

// allocProfile is the process's allocation profile as of now (after a
// garbage collection, which publishes the latest samples).
func allocProfile() (*gpprof.Profile, error) {
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&buf, 0); err != nil {
		return nil, fmt.Errorf("profile: writing the allocation profile: %w", err)
	}
	p, err := gpprof.Parse(&buf)
	if err != nil {
		return nil, fmt.Errorf("profile: parsing the allocation profile: %w", err)
	}
	return p, nil
}

// dropZero removes samples whose values are all zero (what subtracting
// two profiles leaves of everything that did not change).
func dropZero(p *gpprof.Profile) *gpprof.Profile {
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		for _, v := range s.Value {
			if v != 0 {
				kept = append(kept, s)
				break
			}
		}
	}
	p.Sample = kept
	return p
}

// Stack is one summarized sample: frames from the root (outermost) to the
// leaf, and its value.
type Stack struct {
	Frames []string
	Value  int64
}

// SampleIndex picks the value of a profile to read: the CPU profile's
// "cpu" (nanoseconds), the allocation profile's "alloc_space" (bytes).
func SampleIndex(p *gpprof.Profile, typ string) (int, error) {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i, nil
		}
	}
	var have []string
	for _, st := range p.SampleType {
		have = append(have, st.Type)
	}
	return 0, fmt.Errorf("profile: no sample type %q (have %s)", typ, strings.Join(have, ", "))
}

// Summarize returns p's samples of value index vi as summarized stacks:
// each gets a root (RootStatement for samples labelled by TakeGoProfile,
// RootDevice for the runtime's device workers, else RootOther); runs of
// interpreter frames (yaegi, and the reflect calls between them) become
// one InterpretedFrame; inlined frames are kept as their own frames.
func Summarize(p *gpprof.Profile, vi int) []Stack {
	var out []Stack
	for _, s := range p.Sample {
		v := s.Value[vi]
		if v == 0 {
			continue
		}
		var names []string // leaf first, as pprof stores them
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function != nil {
					names = append(names, ln.Function.Name)
				}
			}
		}
		frames := make([]string, 0, len(names)+1)
		frames = append(frames, root(s, names))
		for i := len(names) - 1; i >= 0; i-- {
			f := names[i]
			if isInterp(f) {
				f = InterpretedFrame
			}
			if n := len(frames); f == InterpretedFrame && frames[n-1] == InterpretedFrame {
				continue
			}
			frames = append(frames, f)
		}
		out = append(out, Stack{Frames: frames, Value: v})
	}
	return out
}

func root(s *gpprof.Sample, names []string) string {
	for _, v := range s.Label[labelKey] {
		if v == labelStatement {
			return RootStatement
		}
	}
	for _, n := range names {
		if strings.HasSuffix(n, "runtime/tensor.(*Dev).worker") {
			return RootDevice
		}
	}
	return RootOther
}

// isInterp reports whether a function is the interpreter's machinery: yaegi
// itself, or reflection it calls through (reflect.Value.Call, the
// makeFunc trampolines), which is not the user's code either.
func isInterp(fn string) bool {
	return strings.HasPrefix(fn, "github.com/traefik/yaegi/") ||
		strings.HasPrefix(fn, "reflect.") && !strings.HasPrefix(fn, "reflect.Value.Interface") ||
		fn == "runtime.reflectcall" || strings.HasPrefix(fn, "runtime.call") && len(fn) <= len("runtime.call1073741824")
}

// FuncRow is one line of a top-functions table.
type FuncRow struct {
	Name      string
	Flat, Cum int64 // the function itself; it and what it called
}

// Top returns the functions of stacks by flat value (ties by cum), and
// the total. The roots are not functions and are left out; a function
// that recurses counts once per stack in cum.
func Top(stacks []Stack) (rows []FuncRow, totalValue int64) {
	flat, cum := map[string]int64{}, map[string]int64{}
	for _, s := range stacks {
		totalValue += s.Value
		fs := s.Frames[1:]
		if len(fs) == 0 {
			continue
		}
		flat[fs[len(fs)-1]] += s.Value
		seen := map[string]bool{}
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				cum[f] += s.Value
			}
		}
	}
	for f, c := range cum {
		rows = append(rows, FuncRow{Name: f, Flat: flat[f], Cum: c})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Flat != rows[j].Flat {
			return rows[i].Flat > rows[j].Flat
		}
		if rows[i].Cum != rows[j].Cum {
			return rows[i].Cum > rows[j].Cum
		}
		return rows[i].Name < rows[j].Name
	})
	return rows, totalValue
}

// Node is a node of a flame graph: a frame, its value (it and its
// callees) and its callees, largest first.
type Node struct {
	Name     string
	Value    int64
	Children []*Node
}

// Tree merges stacks into a flame graph under a root named name.
func Tree(name string, stacks []Stack) *Node {
	rootN := &Node{Name: name}
	index := map[*Node]map[string]*Node{}
	for _, s := range stacks {
		n := rootN
		n.Value += s.Value
		for _, f := range s.Frames {
			kids := index[n]
			if kids == nil {
				kids = map[string]*Node{}
				index[n] = kids
			}
			c := kids[f]
			if c == nil {
				c = &Node{Name: f}
				kids[f] = c
				n.Children = append(n.Children, c)
			}
			c.Value += s.Value
			n = c
		}
	}
	sortTree(rootN)
	return rootN
}

func sortTree(n *Node) {
	sort.SliceStable(n.Children, func(i, j int) bool {
		if n.Children[i].Value != n.Children[j].Value {
			return n.Children[i].Value > n.Children[j].Value
		}
		return n.Children[i].Name < n.Children[j].Name
	})
	for _, c := range n.Children {
		sortTree(c)
	}
}
